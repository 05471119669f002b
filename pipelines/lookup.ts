/**
 * Lookup: one entity of the snapshot (a module, document, area, package or external) with what an
 * agent needs before it edits: its neighbours within `depth` hops grouped by relation kind, the
 * documents that cover or mention it (most canonical first), and evidence (path, content hash and
 * an excerpt). With `budgetTokens` it trims in a declared order, counts exactly (cl100k), and never
 * drops the entity or the evidence paths and hashes. One payload for `cairn lookup --json` and the
 * MCP `lookup` tool.
 */
import { Clock, Effect, Schema } from "effect"
import type { Entity, Relation, Snapshot } from "../src/domain/Snapshot.ts"
import { BudgetTokens } from "../src/domain/Query.ts"
import { fromSchemaError, InvalidInput } from "../src/domain/InvalidInput.ts"
import { CandidateStore, type CandidateStoreError } from "../src/ports/CandidateStore.ts"
import { IndexHealth, type IndexHealthReading } from "../src/ports/IndexHealth.ts"
import { TokenCounter } from "../src/ports/TokenCounter.ts"
import { canonicality } from "../src/graph/Canonicality.ts"
import { HealthView, healthView } from "./search.ts"
import { checkedReading } from "./staleness.ts"
import { compareIds } from "../src/domain/Ranking.ts"

export const MAX_LOOKUP_DEPTH = 3
/** Neighbours kept per relation kind: a hub module's importers would otherwise be the whole payload. */
const NEIGHBOURS_PER_KIND = 20
const DOCUMENTS_KEPT = 20
const EXCERPT_LINES = 8
const EXCERPT_CHARS = 600
const SUMMARY_CHARS = 400

/** What may be dropped to fit a budget, first to last; nothing else ever is. */
export const DROP_ORDER = ["evidenceExcerpts", "related", "neighbours", "summaries"] as const
export type Section = typeof DROP_ORDER[number]

export const LookupRequest = Schema.Struct({
  id: Schema.optionalKey(Schema.String.annotate({ description: "An entity id: module:src/a.ts, document:docs/x.md, area:src, package:name, external:lodash" })),
  path: Schema.optionalKey(Schema.String.annotate({ description: "A repository-relative file or directory path" })),
  symbol: Schema.optionalKey(Schema.String.annotate({ description: "An exported or declared name; resolves to the module declaring it" })),
  ref: Schema.optionalKey(Schema.String.annotate({ description: "A claim ref (path:start-end#block), a chunk id (path#block) or a search result's chunk" })),
  depth: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: MAX_LOOKUP_DEPTH })).annotate({ description: "Hops of neighbours, 0 to 3 (default 1)" })),
  budgetTokens: Schema.optionalKey(BudgetTokens.annotate({ description: "Trim the response to this many cl100k tokens, 0 to 32000" }))
})
export type LookupRequest = typeof LookupRequest.Type

const Neighbour = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  /** `out`: this entity (or the one it was reached through) names it; `in`: it names this one. */
  direction: Schema.Literals(["out", "in"]),
  distance: Schema.Int,
  /** The entity it was reached through; the looked-up entity at distance 1. */
  via: Schema.String
})

const NeighbourGroup = Schema.Struct({
  relation: Schema.String,
  /** Neighbours of this relation kind found, before the per-kind bound. */
  found: Schema.Int,
  entries: Schema.Array(Neighbour)
})

const RelatedDocument = Schema.Struct({
  id: Schema.String,
  path: Schema.String,
  title: Schema.String,
  /** How it refers to the entity: `covers`, `mentions`, `links-to`, … */
  relation: Schema.String,
  /** Canonicality in [0, 1]: how much the rest of the documentation treats it as the reference. */
  canonicality: Schema.Finite,
  summary: Schema.optionalKey(Schema.String)
})

const EvidenceItem = Schema.Struct({
  path: Schema.String,
  contentHash: Schema.NullOr(Schema.String),
  excerpt: Schema.optionalKey(Schema.String)
})

export const LookupEntity = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  path: Schema.String,
  title: Schema.String,
  summary: Schema.optionalKey(Schema.String),
  /** Exported names of a module, sorted. */
  symbols: Schema.Array(Schema.String),
  contentHash: Schema.NullOr(Schema.String),
  area: Schema.NullOr(Schema.String),
  package: Schema.NullOr(Schema.String),
  canonicality: Schema.NullOr(Schema.Finite)
})

export const LookupBudget = Schema.Struct({
  budgetTokens: Schema.Int,
  tokens: Schema.Struct({
    /** The response without this `budget` field, as returned. */
    total: Schema.Int,
    /** The response with every droppable section removed. */
    core: Schema.Int,
    /** Each section's own tokens, in the full response. */
    sections: Schema.Record(Schema.String, Schema.Int)
  }),
  fits: Schema.Boolean,
  order: Schema.Array(Schema.String),
  kept: Schema.Array(Schema.String),
  dropped: Schema.Array(Schema.String),
  tokenMethod: Schema.String
})

export const LookupResponse = Schema.Struct({
  entity: LookupEntity,
  depth: Schema.Int,
  neighbours: Schema.optionalKey(Schema.Array(NeighbourGroup)),
  documents: Schema.optionalKey(Schema.Array(RelatedDocument)),
  evidence: Schema.Array(EvidenceItem),
  /** Other entities the symbol or path named, when it named more than one. */
  alternatives: Schema.Array(Schema.String),
  /** How far the index answering is behind the files, as a pack reports it. */
  indexHealth: HealthView,
  budget: Schema.optionalKey(LookupBudget)
})
export type LookupResponse = typeof LookupResponse.Type

/** Nothing in the snapshot answers to what the caller named. */
export class LookupNotFound extends Schema.TaggedError<LookupNotFound>()("LookupNotFound", {
  field: Schema.String,
  value: Schema.String
}) {
  override get message(): string {
    return `lookup: no entity for ${this.field} "${this.value.slice(0, 200)}"; find one with search, or pass an id such as module:src/a.ts`
  }
}

const decodeStrict = Schema.decodeUnknownEffect(LookupRequest)

export const decodeLookup = (input: unknown): Effect.Effect<LookupRequest, InvalidInput> =>
  Effect.flatMap(
    decodeStrict(input, { onExcessProperty: "error" }).pipe(Effect.mapError((error) => fromSchemaError("lookup", error))),
    (request) => {
      const named = (["id", "path", "symbol", "ref"] as const).filter((key) => request[key] !== undefined)
      return named.length === 1
        ? Effect.succeed(request)
        : Effect.fail(new InvalidInput({ subject: "lookup", field: named.length === 0 ? "id" : named.join(", "), detail: "name exactly one of id, path, symbol or ref" }))
    }
  )

/** What one snapshot answers every lookup with, built once per snapshot. */
interface SnapshotView {
  readonly byId: ReadonlyMap<string, Entity>
  readonly byPath: ReadonlyMap<string, ReadonlyArray<Entity>>
  readonly outgoing: ReadonlyMap<string, ReadonlyArray<Relation>>
  readonly incoming: ReadonlyMap<string, ReadonlyArray<Relation>>
  readonly canonicality: ReadonlyMap<string, number>
  readonly declarers: ReadonlyMap<string, ReadonlyArray<string>>
}

const views = new WeakMap<Snapshot, SnapshotView>()

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

const pathOf = (entity: Entity): string => (entity.kind === "external" ? entity.name : entity.path)

export const viewOf = (snapshot: Snapshot): SnapshotView => {
  const known = views.get(snapshot)
  if (known !== undefined) return known
  const byId = new Map<string, Entity>()
  const byPath = new Map<string, Array<Entity>>()
  const declarers = new Map<string, Array<string>>()
  for (const entity of snapshot.entities) {
    byId.set(entity.id, entity)
    push(byPath, pathOf(entity), entity)
    if (entity.kind === "module") {
      const names = new Set([...entity.exports.filter((e) => e.declared).map((e) => e.name), ...entity.declarations.map((d) => d.name)])
      for (const name of names) push(declarers, name, entity.id)
    }
  }
  const outgoing = new Map<string, Array<Relation>>()
  const incoming = new Map<string, Array<Relation>>()
  for (const relation of snapshot.relations) {
    push(outgoing, relation.from, relation)
    push(incoming, relation.to, relation)
  }
  const view = { byId, byPath, outgoing, incoming, canonicality: canonicality(snapshot), declarers }
  views.set(snapshot, view)
  return view
}

// A file-backed entity wins over the directory or manifest sharing its path.
const KIND_ORDER: Record<string, number> = { module: 0, document: 1, package: 2, area: 3, external: 4 }

/** The path a claim ref, a chunk id or `path:line` names. */
const pathOfRef = (ref: string): string => {
  const hash = ref.indexOf("#")
  const withoutBlock = hash === -1 ? ref : ref.slice(0, hash)
  return withoutBlock.replace(/:\d+(-\d+)?$/, "")
}

const resolve = (view: SnapshotView, request: LookupRequest): Effect.Effect<{ readonly entity: Entity; readonly alternatives: ReadonlyArray<string> }, LookupNotFound> => {
  const found = (ids: ReadonlyArray<string>, field: string, value: string) => {
    const entities = ids.flatMap((id) => {
      const entity = view.byId.get(id)
      return entity === undefined ? [] : [entity]
    }).sort((a, b) => (KIND_ORDER[a.kind]! - KIND_ORDER[b.kind]!) || compareIds(a.id, b.id))
    const [first, ...rest] = entities
    return first === undefined
      ? Effect.fail(new LookupNotFound({ field, value }))
      : Effect.succeed({ entity: first, alternatives: rest.map((e) => e.id) })
  }
  const byPath = (path: string, field: string, value: string) => {
    const normal = path.replace(/^\.\//, "").replace(/\/+$/, "")
    return found((view.byPath.get(normal) ?? []).map((e) => e.id), field, value)
  }
  if (request.id !== undefined) return found([request.id], "id", request.id)
  if (request.path !== undefined) return byPath(request.path, "path", request.path)
  if (request.symbol !== undefined) return found(view.declarers.get(request.symbol) ?? [], "symbol", request.symbol)
  const ref = request.ref ?? ""
  return byPath(pathOfRef(ref), "ref", ref)
}


/**
 * Every entity within `depth` hops, each at its nearest distance, reached in sorted order. An entity
 * joined to the one it is reached through by several kinds of relation (a module both imported and
 * called) is listed under each kind, so a derived kind never hides the one it was derived from.
 */
const neighboursOf = (view: SnapshotView, start: string, depth: number) => {
  const seen = new Set([start])
  const groups = new Map<string, Array<typeof Neighbour.Type>>()
  let frontier = [start]
  for (let distance = 1; distance <= depth && frontier.length > 0; distance++) {
    const next: Array<string> = []
    for (const via of frontier) {
      const steps = [
        ...(view.outgoing.get(via) ?? []).map((relation) => ({ relation, other: relation.to, direction: "out" as const })),
        ...(view.incoming.get(via) ?? []).map((relation) => ({ relation, other: relation.from, direction: "in" as const }))
      ].sort((a, b) => compareIds(a.relation.kind, b.relation.kind) || compareIds(a.other, b.other) || compareIds(a.direction, b.direction))
      // Entities first reached from this one, with the kinds they are already listed under.
      const reachedHere = new Map<string, Set<string>>()
      for (const { direction, other, relation } of steps) {
        const entity = view.byId.get(other)
        // An unresolved reference names nothing the scan found: nothing to visit.
        if (entity === undefined) continue
        const listed = reachedHere.get(other)
        if (listed === undefined) {
          if (seen.has(other)) continue
          seen.add(other)
          next.push(other)
          reachedHere.set(other, new Set([relation.kind]))
        } else if (listed.has(relation.kind)) {
          continue
        } else {
          listed.add(relation.kind)
        }
        push(groups, relation.kind, { id: other, kind: entity.kind, direction, distance, via })
      }
    }
    frontier = next.sort(compareIds)
  }
  return [...groups.entries()].sort(([a], [b]) => compareIds(a, b)).map(([relation, entries]) => ({
    relation,
    found: entries.length,
    entries: entries.slice(0, NEIGHBOURS_PER_KIND)
  }))
}

const DOCUMENT_RELATIONS = new Set(["covers", "mentions", "mentions-symbol", "links-to"])

const titleOf = (entity: Entity): string =>
  entity.kind === "document" ? entity.title : entity.kind === "package" ? entity.name ?? entity.directory : pathOf(entity)

const contentHashOf = (entity: Entity): string | null => entity.evidence[0]?.contentHash ?? null

const clip = (text: string, chars: number): string => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text)

/** A chunk's body (its first line is the `{title} > {heading path}` header), first lines only. */
const excerptOfText = (text: string): string => clip(text.split("\n").slice(1, 1 + EXCERPT_LINES).join("\n").trim(), EXCERPT_CHARS)

/** A module's own account of itself: the opening doc comment of its first chunk. */
const moduleSummary = (excerpt: string | undefined): string | undefined => {
  const comment = excerpt?.match(/^\/\*\*([\s\S]*?)(\*\/|$)/)
  if (comment === null || comment === undefined) return undefined
  const text = comment[1]!.split("\n").map((line) => line.replace(/^\s*\*\s?/, "").trim()).join(" ").trim()
  return text === "" ? undefined : clip(text, SUMMARY_CHARS)
}

/** The entity, its neighbours, documents and evidence, before any budget. */
export const describe = Effect.fn("lookup.describe")(function*(snapshot: Snapshot, request: LookupRequest, reading: IndexHealthReading) {
  const view = viewOf(snapshot)
  const { alternatives, entity } = yield* resolve(view, request)
  const depth = request.depth ?? 1
  const documents = [...new Map(
    (view.incoming.get(entity.id) ?? [])
      .filter((relation) => DOCUMENT_RELATIONS.has(relation.kind) && view.byId.get(relation.from)?.kind === "document")
      .sort((a, b) => compareIds(a.from, b.from) || compareIds(a.kind, b.kind))
      .map((relation) => [relation.from, relation] as const)
  ).values()]
    .map((relation) => {
      const document = view.byId.get(relation.from)! as Extract<Entity, { kind: "document" }>
      return {
        id: document.id,
        path: document.path,
        title: document.title,
        relation: relation.kind,
        canonicality: Number((view.canonicality.get(document.id) ?? 0).toPrecision(3)),
        ...(document.summary === "" ? {} : { summary: clip(document.summary, SUMMARY_CHARS) })
      }
    })
    .sort((a, b) => b.canonicality - a.canonicality || compareIds(a.id, b.id))
    .slice(0, DOCUMENTS_KEPT)

  // Excerpts come from the index, so they quote what the answers quote.
  const store = yield* CandidateStore
  const filePaths = [...new Set([entity, ...documents.map((d) => view.byId.get(d.id)!)].filter((e) => e.kind === "module" || e.kind === "document").map(pathOf))]
  const leads = yield* store.chunksOfNotes(filePaths, 1, {})
  const excerpts = new Map(leads.map((chunk) => [chunk.noteId, excerptOfText(chunk.text)]))

  const area = (view.incoming.get(entity.id) ?? []).find((r) => r.kind === "contains" && r.from.startsWith("area:"))?.from ?? null
  const owner = entity.kind === "external"
    ? undefined
    : snapshot.entities
      .filter((e): e is Extract<Entity, { kind: "package" }> => e.kind === "package" && e.id !== entity.id)
      .filter((p) => p.directory === "" || pathOf(entity) === p.directory || pathOf(entity).startsWith(`${p.directory}/`))
      .sort((a, b) => b.directory.length - a.directory.length || compareIds(a.id, b.id))[0]
  const summary = entity.kind === "document"
    ? (entity.summary === "" ? undefined : clip(entity.summary, SUMMARY_CHARS))
    : moduleSummary(excerpts.get(pathOf(entity)))
  const evidence = [entity, ...documents.map((d) => view.byId.get(d.id)!)].map((e) => {
    const excerpt = excerpts.get(pathOf(e))
    return { path: pathOf(e), contentHash: contentHashOf(e), ...(excerpt === undefined || excerpt === "" ? {} : { excerpt }) }
  })
  return {
    entity: {
      id: entity.id,
      kind: entity.kind,
      path: pathOf(entity),
      title: titleOf(entity),
      ...(summary === undefined ? {} : { summary }),
      symbols: entity.kind === "module" ? [...new Set(entity.exports.map((e) => e.name))].sort(compareIds) : [],
      contentHash: contentHashOf(entity),
      area,
      package: owner?.id ?? null,
      canonicality: entity.kind === "document" ? Number((view.canonicality.get(entity.id) ?? 0).toPrecision(3)) : null
    },
    depth,
    neighbours: neighboursOf(view, entity.id, depth),
    documents,
    evidence,
    alternatives,
    indexHealth: healthView(reading)
  } satisfies LookupResponse
})

/** The response with `section` removed. */
const without = (response: LookupResponse, section: Section): LookupResponse => {
  switch (section) {
    case "evidenceExcerpts":
      return { ...response, evidence: response.evidence.map(({ contentHash, path }) => ({ path, contentHash })) }
    case "related": {
      const { documents: _, ...rest } = response
      return rest
    }
    case "neighbours": {
      const { neighbours: _, ...rest } = response
      return rest
    }
    case "summaries": {
      const { summary: _, ...entity } = response.entity
      return { ...response, entity, ...(response.documents === undefined ? {} : { documents: response.documents.map(({ summary: _s, ...d }) => d) }) }
    }
  }
}

const has = (response: LookupResponse, section: Section): boolean => {
  switch (section) {
    case "evidenceExcerpts":
      return response.evidence.some((e) => e.excerpt !== undefined)
    case "related":
      return response.documents !== undefined && response.documents.length > 0
    case "neighbours":
      return response.neighbours !== undefined && response.neighbours.length > 0
    case "summaries":
      return response.entity.summary !== undefined || (response.documents ?? []).some((d) => d.summary !== undefined)
  }
}

const encode = Schema.encodeSync(LookupResponse)

/**
 * Fit `response` to `budgetTokens`: drop sections in `DROP_ORDER` until the rest fits, or report
 * `fits: false` with every section dropped when the core alone does not. A section the response
 * does not have is neither kept nor dropped.
 */
export const fitToBudget = (
  response: LookupResponse,
  budgetTokens: number,
  counter: { readonly count: (text: string) => number; readonly exact: boolean }
): LookupResponse => {
  const count = counter.count
  const tokens = (r: LookupResponse) => count(JSON.stringify(encode(r)))
  const present = DROP_ORDER.filter((section) => has(response, section))
  const sections = Object.fromEntries(present.map((section) => [section, tokens(response) - tokens(without(response, section))]))
  const core = tokens(present.reduce(without, response))
  let current = response
  const dropped: Array<Section> = []
  for (const section of present) {
    if (tokens(current) <= budgetTokens) break
    current = without(current, section)
    dropped.push(section)
  }
  const total = tokens(current)
  return {
    ...current,
    budget: {
      budgetTokens,
      tokens: { total, core, sections },
      fits: total <= budgetTokens,
      order: [...DROP_ORDER],
      // Dropping one section can empty another (the documents carry summaries): kept is what is left.
      kept: present.filter((section) => !dropped.includes(section) && has(current, section)),
      dropped,
      tokenMethod: counter.exact ? "cl100k" : "approximate"
    }
  }
}

export const lookup = Effect.fn("lookup")(function*(
  input: unknown,
  snapshot: Snapshot
): Effect.fn.Return<LookupResponse, InvalidInput | LookupNotFound | CandidateStoreError, CandidateStore | TokenCounter | IndexHealth> {
  const request = yield* decodeLookup(input)
  // The one clock read, for the index's lag.
  const now = yield* Clock.currentTimeMillis
  const reading = yield* checkedReading(yield* IndexHealth, now).pipe(
    Effect.catch(() => Effect.succeed<IndexHealthReading>({ embeddingCoverage: 0, lagSeconds: 0 }))
  )
  const described = yield* describe(snapshot, request, reading)
  if (request.budgetTokens === undefined) return described
  const counter = yield* TokenCounter
  return fitToBudget(described, request.budgetTokens, counter)
})
