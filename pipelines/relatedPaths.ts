/**
 * The files around a search result, read off the graph's edges: what it imports and what imports
 * it, what it calls and what calls it, and its tests. Tests are the `test_sibling` relations
 * discovery stores (`src/discovery/ModuleRelations.ts`: a test importing a file of its own name);
 * for a test, its subject is the sibling. So an agent that finds the code finds its tests, which
 * search weighs down, one step away. A test that never imports its subject (a Go test in the
 * package it tests) has no such relation.
 */
import { compareIds } from "../src/domain/Ranking.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"

/** Verbs of an import, as the analyzers write them. */
const IMPORT_VERBS: ReadonlySet<string> = new Set(["imports", "imports-type", "imports-dynamic", "re-exports", "requires"])

/** Paths of each kind a result carries, the first in path order: enough to follow, not a dump. */
export const MAX_RELATED_PATHS = 10

export interface RelatedPaths {
  readonly imports: ReadonlyArray<string>
  readonly importedBy: ReadonlyArray<string>
  readonly calls: ReadonlyArray<string>
  readonly calledBy: ReadonlyArray<string>
  readonly testSiblings: ReadonlyArray<string>
}

const firstPaths = (paths: Iterable<string>, except: ReadonlySet<string> = new Set()): Array<string> =>
  [...new Set(paths)].filter((path) => !except.has(path)).sort(compareIds).slice(0, MAX_RELATED_PATHS)

/** The related paths of `path` among `edges` (any edges; those not touching it are ignored). */
export const relatedPaths = (path: string, edges: ReadonlyArray<NoteEdge>): RelatedPaths => {
  const imports: Array<string> = []
  const importedBy: Array<string> = []
  const calls: Array<string> = []
  const calledBy: Array<string> = []
  const siblings = new Set<string>()
  for (const edge of edges) {
    if (edge.from === edge.to) continue
    const other = edge.from === path ? edge.to : edge.to === path ? edge.from : undefined
    if (other === undefined) continue
    const outbound = edge.from === path
    if (edge.verb === "test_sibling") siblings.add(other)
    else if (edge.verb === "calls") (outbound ? calls : calledBy).push(other)
    else if (IMPORT_VERBS.has(edge.verb)) (outbound ? imports : importedBy).push(other)
  }
  // A sibling is listed as a test, not again among the imports that made it one.
  return {
    imports: firstPaths(imports, siblings),
    importedBy: firstPaths(importedBy, siblings),
    calls: firstPaths(calls, siblings),
    calledBy: firstPaths(calledBy, siblings),
    testSiblings: firstPaths(siblings)
  }
}
