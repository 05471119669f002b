/**
 * `chunks.stems`: each chunk's distinct stems (terms.ts `distinctStems`), space-separated, written
 * with the chunk. A one-shot question then splits stored strings instead of stemming every
 * candidate passage, which cold took a tenth of the question.
 *
 * Stems are only as good as the analysis that made them, and a later cairn may analyse otherwise:
 * `manifest.stems_version` names the analysis the column was written under (`version`, its stems
 * of a probe text). A reader uses the column only under the same analysis; a writer under another
 * refills it before it commits (`settle`).
 */
import type { DatabaseSync, StatementSync } from "node:sqlite"
import type { Chunk } from "../../src/domain/Chunk.ts"
import { terms } from "../../src/text/Words.ts"
import { distinctStems, rememberDistinctStems } from "../../src/retrieval/terms.ts"

/** The column's value for `chunk`. */
export const encode = (chunk: Chunk): string => distinctStems(chunk).join(" ")

/** The stems a column value holds. */
export const decode = (stored: string): ReadonlyArray<string> => (stored === "" ? [] : stored.split(" "))

// Words that exercise the tokenizer (case, accents, joined identifiers, digits) and every step of
// the stemmer: a change to either changes their stems.
const PROBE = "Relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli " +
  "analogousli vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti " +
  "sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival " +
  "allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment dependent " +
  "adoption homologou communism activate angulariti homologous effective bowdlerize probate rate cease " +
  "controll roll caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled " +
  "sized hopping tanned falling hissing fizzed failing filing happy sky Café naïve ÉCOLE maxRetries " +
  "parse_json HTTPServer v2beta3 42nd 3.14"

let analysis: string | undefined

/** The analysis stems are written under: its stems of the probe, hashed (FNV-1a). */
export const version = (): string => {
  if (analysis === undefined) {
    let hash = 0x811c9dc5
    for (const unit of terms(PROBE).join(" ")) hash = Math.imul(hash ^ unit.charCodeAt(0), 0x01000193)
    analysis = `fnv1a:${(hash >>> 0).toString(16).padStart(8, "0")}`
  }
  return analysis
}

/** Whether the file has the columns: a read-only open of a file from before them cannot add them. */
const columnsStored = (db: DatabaseSync): boolean =>
  (db.prepare("SELECT 1 AS found FROM pragma_table_info('chunks') WHERE name = 'stems'").get() as { found: number } | undefined) !== undefined

/** The analysis the stored stems were written under: null when unnamed, undefined before any build. */
const storedVersion = (db: DatabaseSync): string | null | undefined =>
  (db.prepare("SELECT stems_version FROM manifest WHERE key = 1").get() as { stems_version: string | null } | undefined)?.stems_version

/**
 * Makes matching read the stored stems of the chunks a store hands back from `db`, when it asks
 * about them: most chunks read are never matched, and carrying every chunk's stems along grew a
 * one-shot question's heap into a full collection. Stems are taken only under this cairn's
 * analysis and only from the row as the chunk was read (a chunk rewritten since is stemmed
 * afresh); any failure (the file closed, say) leaves the passage to be stemmed.
 */
export const remembering = (db: DatabaseSync): ((chunk: Chunk) => void) => {
  if (!columnsStored(db)) return () => {}
  let statement: StatementSync | undefined
  const storedFor = (chunk: Chunk): ReadonlyArray<string> | undefined => {
    try {
      if (storedVersion(db) !== version()) return undefined
      statement ??= db.prepare("SELECT stems FROM chunks WHERE id = ? AND text = ? AND path = ? AND heading_path = ? AND tags = ?")
      const row = statement.get(chunk.id, chunk.text, chunk.path, JSON.stringify(chunk.headingPath), JSON.stringify(chunk.tags)) as
        | { stems: string | null }
        | undefined
      return typeof row?.stems === "string" ? decode(row.stems) : undefined
    } catch {
      return undefined
    }
  }
  return (chunk) => rememberDistinctStems(chunk, () => storedFor(chunk))
}

/** Writes every chunk's stems under this cairn's analysis. */
export const fill = (db: DatabaseSync): void => {
  const update = db.prepare("UPDATE chunks SET stems = ? WHERE row = ?")
  const rows = db.prepare("SELECT row, path, heading_path, text, tags FROM chunks").all() as Array<{ row: number; path: string; heading_path: string; text: string; tags: string }>
  for (const row of rows) {
    const passage = { path: row.path, headingPath: JSON.parse(row.heading_path) as Array<string>, text: row.text, tags: JSON.parse(row.tags) as Array<string> }
    update.run(distinctStems(passage).join(" "), row.row)
  }
}

/**
 * Before a write commits, inside its transaction: the chunks an earlier build left were stemmed
 * under the analysis the manifest names; under another they are stemmed again, so the manifest the
 * write leaves can name this one. A first build writes every chunk itself.
 */
export const settle = (db: DatabaseSync): void => {
  const stored = storedVersion(db)
  if (stored !== undefined && stored !== version()) fill(db)
}
