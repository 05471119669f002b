/**
 * File-level baselines for commit localization: what a user gets without cairn, over the same
 * files. Each keeps its own index of the tree and is told which files changed between two parents,
 * so replaying a repository's history costs what changed, not the whole tree each time.
 *
 * - grep: files ranked by how many distinct query words they contain, then by occurrences.
 * - bm25-content and bm25-path-content: SQLite FTS5 (unicode61) BM25, the path column weighted 0
 *   or 1.
 * - minisearch: MiniSearch over path and content with its defaults.
 */
import MiniSearch from "minisearch"
import { DatabaseSync } from "node:sqlite"
import { compareIds } from "../../src/domain/Ranking.ts"

export interface FileRanker {
  readonly put: (path: string, text: string) => void
  readonly remove: (path: string) => void
  /** Paths best first, at most `limit`. */
  readonly rank: (query: string, limit: number) => ReadonlyArray<string>
}

/** The words of a query the baselines search for: letters and digits, lower-cased, distinct. */
export const queryWords = (query: string): Array<string> =>
  [...new Set((query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length > 1))]

export const grep = (): FileRanker => {
  const files = new Map<string, string>()
  return {
    put: (path, text) => void files.set(path, text.toLowerCase()),
    remove: (path) => void files.delete(path),
    rank: (query, limit) => {
      const words = queryWords(query)
      const scored: Array<{ path: string; distinct: number; hits: number }> = []
      for (const [path, text] of files) {
        let distinct = 0
        let hits = 0
        for (const word of words) {
          let at = text.indexOf(word)
          if (at !== -1) distinct++
          while (at !== -1) {
            hits++
            at = text.indexOf(word, at + word.length)
          }
        }
        if (distinct > 0) scored.push({ path, distinct, hits })
      }
      scored.sort((a, b) => b.distinct - a.distinct || b.hits - a.hits || compareIds(a.path, b.path))
      return scored.slice(0, limit).map((s) => s.path)
    }
  }
}

const bm25 = (pathWeight: number): FileRanker => {
  const db = new DatabaseSync(":memory:")
  db.exec("CREATE VIRTUAL TABLE files USING fts5(path, body, tokenize = 'unicode61')")
  const insert = db.prepare("INSERT INTO files(path, body) VALUES (?, ?)")
  const remove = db.prepare("DELETE FROM files WHERE path = ?")
  const search = db.prepare(`SELECT path FROM files WHERE files MATCH ? ORDER BY bm25(files, ${pathWeight}, 1), path LIMIT ?`)
  return {
    put: (path, text) => {
      remove.run(path)
      insert.run(path, text)
    },
    remove: (path) => void remove.run(path),
    rank: (query, limit) => {
      const words = queryWords(query)
      if (words.length === 0) return []
      const match = words.map((w) => `"${w.replaceAll("\"", "\"\"")}"`).join(" OR ")
      return (search.all(pathWeight === 0 ? `body : (${match})` : match, limit) as Array<{ path: string }>).map((row) => row.path)
    }
  }
}

export const bm25Content = (): FileRanker => bm25(0)
export const bm25PathContent = (): FileRanker => bm25(1)

export const minisearch = (): FileRanker => {
  // Its background vacuum is off: it overflowed the stack on a replayed history, and a discarded file only leaves its terms behind.
  const index = new MiniSearch<{ id: string; path: string; body: string }>({ fields: ["path", "body"], storeFields: [], autoVacuum: false })
  const present = new Set<string>()
  return {
    put: (path, text) => {
      if (present.has(path)) index.discard(path)
      index.add({ id: path, path, body: text })
      present.add(path)
    },
    remove: (path) => {
      if (present.delete(path)) index.discard(path)
    },
    rank: (query, limit) => index.search(query).slice(0, limit).map((hit) => String(hit.id))
  }
}

export const FILE_BASELINES: ReadonlyArray<{ readonly name: string; readonly make: () => FileRanker }> = [
  { name: "grep", make: grep },
  { name: "bm25-content", make: bm25Content },
  { name: "bm25-path-content", make: bm25PathContent },
  { name: "minisearch", make: minisearch }
]
