/** Java and Kotlin imports: a class's file by its package path, in either language, or the package's files. */
import type { LanguageSpec } from "../LanguageSpec.ts"
import { closest } from "./Closest.ts"

const SOURCES = [".java", ".kt"]

/**
 * `a.b.C` is the file `a/b/C.java` or `a/b/C.kt` under any source root; a static or nested import
 * `a.b.C.m` the file of `a.b.C`; `a.b.*` every file of the package directory `a/b` (one root), and
 * when there is no such directory (`import static a.b.C.*`), the file of `a.b.C`.
 */
export const resolveJvm: NonNullable<LanguageSpec["resolve"]> = (from, specifier, context) => {
  const parts = specifier.split(".")
  if (parts.at(-1) === "*") {
    const directory = closest(from, context.directoriesEndingWith(parts.slice(0, -1).join("/")).map((dir) => `${dir}/`))
    if (directory !== undefined) return context.inDirectory(directory.slice(0, -1)).filter((path) => SOURCES.some((ext) => path.endsWith(ext)))
    // `import static a.b.C.*` names the members of a class: its file.
    parts.pop()
  }
  for (let n = parts.length; n >= 2; n--) {
    const stem = parts.slice(0, n).join("/")
    const found = closest(from, SOURCES.flatMap((ext) => context.endingWith(`${stem}${ext}`)))
    if (found !== undefined) return [found]
  }
  return []
}
