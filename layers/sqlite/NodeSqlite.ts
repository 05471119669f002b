/**
 * `node:sqlite`, loaded without its experimental warning. Node 22 prints "SQLite is an experimental
 * feature and might change at any time" when the module first loads, on every run of every
 * program that uses cairn; nothing in it is for their users to act on. Only that warning, and only
 * while the module loads, is held back: every other warning passes, and Node 24 gives none.
 */
import type * as Sqlite from "node:sqlite"

const isSqliteExperimental = (warning: string | Error, rest: ReadonlyArray<unknown>): boolean => {
  const options = rest[0]
  const type = typeof options === "string" ? options : (options as { type?: string } | undefined)?.type ?? (warning instanceof Error ? warning.name : undefined)
  const text = typeof warning === "string" ? warning : warning.message
  return type === "ExperimentalWarning" && text.includes("SQLite")
}

const load = (): typeof Sqlite => {
  const emitWarning = process.emitWarning
  process.emitWarning = ((warning: string | Error, ...rest: Array<unknown>) => {
    if (!isSqliteExperimental(warning, rest)) Reflect.apply(emitWarning, process, [warning, ...rest])
  }) as typeof process.emitWarning
  try {
    const sqlite = process.getBuiltinModule("node:sqlite") as typeof Sqlite | undefined
    // An unsupported Node, reached by importing the library rather than through the command.
    if (sqlite === undefined) throw new Error(`cairn needs node:sqlite, which Node.js 22.19 or later has; this is Node.js ${process.versions.node}`)
    return sqlite
  } finally {
    process.emitWarning = emitWarning
  }
}

export const { DatabaseSync } = load()
export type DatabaseSync = Sqlite.DatabaseSync
