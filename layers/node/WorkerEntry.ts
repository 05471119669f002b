/**
 * Where a worker thread's entry module is, and the one warning when a worker cannot help.
 *
 * The entry sits beside the module that starts it, with that module's own extension: `.ts` when
 * cairn runs from its sources, `.js` from its build (`dist/`, and the command line's bundle, which
 * places the entries beside its chunks). A service that bundles cairn into a file of its own has no
 * such sibling; the entry the installed package exports (`cairn/workers/<name>`) stands in, when the
 * package is installed beside the bundle. Where neither exists the work runs on the calling thread,
 * as it does when a worker fails, and a process warning says so once per kind of worker, so a slow
 * run is never a silent one.
 */
import * as NodeFs from "node:fs"
import { fileURLToPath } from "node:url"

export type WorkerName = "analyzer" | "chunker" | "training"

/** What each kind of worker does, for the warning. */
const WORK: Record<WorkerName, string> = {
  analyzer: "file analysis",
  chunker: "chunking",
  training: "embedder training"
}

/** The warning's code, so a service can filter it (`process.on("warning")`, `--no-warnings`). */
export const WORKER_WARNING_CODE = "CAIRN_WORKER_UNAVAILABLE"

const warned = new Set<WorkerName>()

/** Warns once per kind of worker that `detail` kept it from helping; the work is done here instead. */
export const workerUnavailable = (name: WorkerName, detail: string): void => {
  if (warned.has(name)) return
  warned.add(name)
  process.emitWarning(`${detail}; ${WORK[name]} runs on the calling thread instead, which is slower`, {
    type: "CairnWarning",
    code: WORKER_WARNING_CODE
  })
}

const exists = (url: URL): boolean => {
  try {
    return url.protocol === "file:" && NodeFs.statSync(fileURLToPath(url)).isFile()
  } catch {
    return false
  }
}

/** The installed package's export of the entry, if the package can be resolved from here. */
const exported = (name: WorkerName, resolve: ((specifier: string) => string) | undefined): URL | undefined => {
  if (resolve === undefined) return undefined
  try {
    return new URL(resolve(`cairn/workers/${name}`))
  } catch {
    return undefined
  }
}

/**
 * The entry of the `name` worker for a module at `from` (its `import.meta.url`), or undefined, with
 * the warning given, when there is none to start.
 */
export const workerEntry = (
  name: WorkerName,
  from: string,
  resolve: ((specifier: string) => string) | undefined = import.meta.resolve?.bind(import.meta)
): URL | undefined => {
  const extension = new URL(from).pathname.endsWith(".ts") ? ".ts" : ".js"
  const sibling = new URL(`./${name}Worker${extension}`, from)
  if (exists(sibling)) return sibling
  const fallback = exported(name, resolve)
  if (fallback !== undefined && exists(fallback)) return fallback
  workerUnavailable(name, `cairn: the ${name} worker's entry file is missing (looked for ${sibling.protocol === "file:" ? fileURLToPath(sibling) : sibling.href} and the package export cairn/workers/${name})`)
  return undefined
}

/** For tests: forget which warnings were given. */
export const resetWarnings = (): void => warned.clear()
