/**
 * `notes.name_terms`: each note's analysed name (the title/path channel's `analysedName`: its
 * title and file name, stemmed, stopwords kept), written with the note. A one-shot question then
 * splits stored strings instead of analysing every note's name, which on a repository of 12,000
 * notes cost more than the rest of the question.
 */
import type { DatabaseSync } from "node:sqlite"
import { analysedName } from "../../src/retrieval/titlePath.ts"

/** The column's value for a note named by `title` and `path`. */
export const encode = (title: string | null, path: string | null): string | null =>
  title === null || path === null ? null : analysedName({ title, path }).join(" ")

/** The terms a column value holds; undefined for a note whose name was not stored. */
export const decode = (stored: string | null | undefined): ReadonlyArray<string> | undefined =>
  stored === null || stored === undefined ? undefined : stored === "" ? [] : stored.split(" ")

/** Whether the file has the column: a read-only open of a file from before it cannot add it. */
export const stored = (db: DatabaseSync): boolean =>
  (db.prepare("SELECT 1 AS found FROM pragma_table_info('notes') WHERE name = 'name_terms'").get() as { found: number } | undefined) !== undefined

/** Fills the column of a file migrated to it, from the titles and paths it stores. */
export const fill = (db: DatabaseSync): void => {
  const update = db.prepare("UPDATE notes SET name_terms = ? WHERE id = ?")
  for (const row of db.prepare("SELECT id, title, path FROM notes").all() as Array<{ id: string; title: string | null; path: string | null }>) {
    update.run(encode(row.title, row.path), row.id)
  }
}
