/**
 * Small snapshots for the graph tests, written as ids and relation triples. Entities get the
 * fields the schema requires and nothing more; every relation gets one evidence line, so tests can
 * check the lines a cycle report cites.
 */
import type { Entity, Relation, Snapshot } from "../../src/domain/Snapshot.ts"

export type Triple = readonly [from: string, kind: string, to: string]

export interface SnapshotSpec {
  /** Full ids: `module:src/a.ts`, `document:docs/a.md`, `area:src`, `external:lodash`. */
  readonly entities: ReadonlyArray<string>
  readonly relations?: ReadonlyArray<Triple>
}

const pathOf = (id: string): string => id.slice(id.indexOf(":") + 1)

export const entity = (id: string): Entity => {
  const kind = id.slice(0, id.indexOf(":"))
  const path = pathOf(id)
  switch (kind) {
    case "module":
      return { id, kind, path, evidence: [{ path }], language: "ts", exports: [], declarations: [] }
    case "document":
      return {
        id,
        kind,
        path,
        evidence: [{ path }],
        title: path,
        headings: [],
        summary: "",
        wordCount: 0,
        frontmatter: {},
        generatedRegions: [],
        evidenceTruncated: false
      }
    case "area":
      return { id, kind, path, evidence: [] }
    case "external":
      return { id, kind, name: path, evidence: [] }
    case "package":
      return { id, kind, path: `${path}/package.json`, evidence: [], name: path, version: null, directory: path, entryPoints: [], workspaces: [] }
    default:
      throw new Error(`fixture: unknown entity kind in ${id}`)
  }
}

/** The relation's line is its position in the spec plus one, so each edge cites a distinct line. */
export const relation = ([from, kind, to]: Triple, line: number): Relation => ({
  kind,
  from,
  to,
  status: "observed",
  confidence: "exact",
  evidence: [{ path: pathOf(from), line }]
})

/** A snapshot holding exactly these entities and relations, in the order given (not sorted). */
export const snapshotOf = (spec: SnapshotSpec): Snapshot => ({
  schemaVersion: 1,
  pipelineVersion: "discover/2",
  analyzerVersions: {},
  configurationHash: "",
  sourceRevision: null,
  compilerOptions: [],
  entities: spec.entities.map(entity),
  relations: (spec.relations ?? []).map((triple, i) => relation(triple, i + 1)),
  coverage: [],
  contentHash: ""
})

/** The same snapshot with its entities and relations in another order. */
export const reorder = (snapshot: Snapshot, permute: <A>(items: ReadonlyArray<A>) => ReadonlyArray<A>): Snapshot => ({
  ...snapshot,
  entities: permute(snapshot.entities),
  relations: permute(snapshot.relations)
})

export const modules = (...paths: ReadonlyArray<string>): Array<string> => paths.map((path) => `module:${path}`)
