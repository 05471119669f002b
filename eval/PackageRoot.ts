/**
 * Where the bench finds its own files. The runner is run from the source (`eval/main.ts`) or from
 * the build (`dist/eval/main.js`), in a checkout or inside an installed package, so no fixed number
 * of `..` from the module is right: the root is the nearest folder up whose package.json names cairn.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, sep } from "node:path"

const NAME = "cairn"

const namesCairn = (folder: string): boolean => {
  const manifest = join(folder, "package.json")
  if (!existsSync(manifest)) return false
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === NAME
  } catch {
    // A package.json that does not parse (a build's stub, a half-written file) is not ours.
    return false
  }
}

/** The nearest folder at or above `from` whose package.json is named `cairn`; throws if there is none. */
export const findPackageRoot = (from: string): string => {
  for (let folder = from; ; folder = dirname(folder)) {
    if (namesCairn(folder)) return folder
    if (dirname(folder) === folder) throw new Error(`no package.json named ${NAME} at or above ${from}`)
  }
}

/**
 * True for a working copy with its sources (`src/`), false for an installed package: that ships
 * the build and the data files only, and sits under node_modules.
 */
export const isCheckout = (root: string): boolean =>
  !root.split(sep).includes("node_modules") && existsSync(join(root, "src"))
