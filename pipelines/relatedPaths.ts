/**
 * The files around a search result, read off the graph's edges: what it imports, what imports it,
 * and its tests. A test is a file of the test conventions (`adjust/testFiles.ts`) joined to the file
 * by an import either way whose name is the file's with a test marker (`pack.test.ts` and `pack.ts`,
 * `cart_test.go` and `cart.go`, `test_invoice.py` and `invoice.py`); for a test, its subject is the
 * sibling. So an agent that finds the code finds its tests, which search weighs down, one step away.
 * A test that never imports its subject (a Go test in the package it tests) is not seen.
 */
import { compareIds } from "../src/domain/Ranking.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import { isTestPath } from "../src/retrieval/adjust/testFiles.ts"

/** Verbs of an import, as the analyzers write them. */
const IMPORT_VERBS: ReadonlySet<string> = new Set(["imports", "imports-type", "imports-dynamic", "re-exports", "requires"])

/** Paths of each kind a result carries, the first in path order: enough to follow, not a dump. */
export const MAX_RELATED_PATHS = 10

export interface RelatedPaths {
  readonly imports: ReadonlyArray<string>
  readonly importedBy: ReadonlyArray<string>
  readonly testSiblings: ReadonlyArray<string>
}

/** A file's name without its directory, its extension and any test marker, lower-cased. */
export const subjectName = (path: string): string => {
  const base = (path.slice(path.lastIndexOf("/") + 1)).toLowerCase()
  const dot = base.lastIndexOf(".")
  const stem = dot > 0 ? base.slice(0, dot) : base
  return stem.replace(/\.(test|spec|e2e-spec|test-d)$/, "").replace(/_test$/, "").replace(/^test_/, "")
}

const isSibling = (a: string, b: string): boolean => isTestPath(a) !== isTestPath(b) && subjectName(a) === subjectName(b)

const firstPaths = (paths: Iterable<string>): Array<string> => [...new Set(paths)].sort(compareIds).slice(0, MAX_RELATED_PATHS)

/** The related paths of `path` among `edges` (any edges; those not touching it are ignored). */
export const relatedPaths = (path: string, edges: ReadonlyArray<NoteEdge>): RelatedPaths => {
  const imports: Array<string> = []
  const importedBy: Array<string> = []
  const siblings: Array<string> = []
  for (const edge of edges) {
    if (!IMPORT_VERBS.has(edge.verb) || edge.from === edge.to) continue
    const other = edge.from === path ? edge.to : edge.to === path ? edge.from : undefined
    if (other === undefined) continue
    if (isSibling(path, other)) siblings.push(other)
    else if (edge.from === path) imports.push(other)
    else importedBy.push(other)
  }
  return { imports: firstPaths(imports), importedBy: firstPaths(importedBy), testSiblings: firstPaths(siblings) }
}
