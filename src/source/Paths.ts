/**
 * Repository-relative POSIX paths. Discovery names every file by its path from the root with `/`
 * separators and no leading `./`; `""` is the root itself. Pure string work, no platform path module.
 */

/** Joins two relative paths, either of which may be `""`. */
export const join = (a: string, b: string): string => (a === "" ? b : b === "" ? a : `${a}/${b}`)

/** The directory of a path; `""` for a top-level entry. */
export const dirname = (path: string): string => {
  const slash = path.lastIndexOf("/")
  return slash < 0 ? "" : path.slice(0, slash)
}

export const basename = (path: string): string => path.slice(path.lastIndexOf("/") + 1)

/** The extension including its dot, lower-cased (`.ts`), or `""`. A leading dot is not an extension. */
export const extname = (path: string): string => {
  const base = basename(path)
  const dot = base.lastIndexOf(".")
  return dot <= 0 ? "" : base.slice(dot).toLowerCase()
}

/**
 * Collapses `.` and `..` segments and repeated slashes. Returns none (`undefined`) when the path
 * climbs above the root, which is how a reference leaving the repository is recognised.
 */
export const normalize = (path: string): string | undefined => {
  const out: Array<string> = []
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") {
      if (out.length === 0) return undefined
      out.pop()
    } else {
      out.push(segment)
    }
  }
  return out.join("/")
}

/** Resolves `reference` against directory `from`; a leading `/` means the root. */
export const resolve = (from: string, reference: string): string | undefined =>
  normalize(reference.startsWith("/") ? reference : join(from, reference))

/** True when `path` is `directory` or lies beneath it. */
export const isWithin = (path: string, directory: string): boolean =>
  directory === "" || path === directory || path.startsWith(`${directory}/`)

/** The first `depth` segments of a directory path. */
export const truncate = (directory: string, depth: number): string =>
  directory === "" ? "" : directory.split("/").slice(0, depth).join("/")

/** Every ancestor directory of a path, nearest first, ending with the root `""`. */
export const ancestors = (path: string): Array<string> => {
  const out: Array<string> = []
  let current = dirname(path)
  for (;;) {
    out.push(current)
    if (current === "") return out
    current = dirname(current)
  }
}
