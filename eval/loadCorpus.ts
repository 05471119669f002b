/**
 * Builds an evaluation corpus from a folder: discovery for the relations between notes and their
 * graph canonicality, the real chunker for the passages (so `mustContain` is checked against the
 * chunker's own output), and the age of the words from where the corpus keeps it: frontmatter
 * dates for the team knowledge base, the per-file commit dates of a `<corpus>.history.tsv` for the
 * shared corpora.
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { Effect, FileSystem, Path } from "effect"
import type { Chunk } from "../src/domain/Chunk.ts"
import { canonicality } from "../src/graph/Canonicality.ts"
import { chunkFile, CODE_EXTENSIONS, MARKDOWN_EXTENSIONS } from "../src/index/chunk/ChunkFile.ts"
import type { BlameLine } from "../src/ports/History.ts"
import type { NoteEdge } from "../src/ports/GraphStore.ts"
import * as TokenCounterDefault from "../layers/tokens/TokenCounterDefault.ts"
import { discover } from "../pipelines/discover.ts"
import type { EvalCorpus, GapPremise } from "./Corpus.ts"
import type { PlantedConflict } from "./metrics.ts"
import { compareIds } from "../src/domain/Ranking.ts"

export interface CorpusSpec {
  readonly name: string
  /** The folder holding the notes. */
  readonly root: string
  /** Files (exact paths) or folders (ending in `/`) that describe the corpus rather than belong to it. */
  readonly exclude?: ReadonlyArray<string>
  /** `<corpus>.history.tsv` with per-file commit dates, when the corpus has one. */
  readonly historyTsv?: string
  /** The evaluation date; defaults to the newest commit date in the history file. */
  readonly anchor?: string
  readonly conflictsJson?: string
  readonly gapsJson?: string
  /** Also chunk source files (the repository's own set). */
  readonly includeCode?: boolean
}

const DOC_PREFIX = "document:"
const MODULE_PREFIX = "module:"
const noteOf = (id: string): string | undefined =>
  id.startsWith(DOC_PREFIX) ? id.slice(DOC_PREFIX.length) : id.startsWith(MODULE_PREFIX) ? id.slice(MODULE_PREFIX.length) : undefined


/** Per-file newest commit time (epoch seconds) from a history file. */
const readHistory = (text: string): Map<string, number> => {
  const out = new Map<string, number>()
  const [header, ...rows] = text.split("\n").filter((line) => line.trim() !== "")
  const columns = (header ?? "").split("\t")
  const pathAt = columns.indexOf("path")
  const dateAt = columns.indexOf("last_commit_date")
  for (const row of rows) {
    const cells = row.split("\t")
    const millis = Date.parse(cells[dateAt] ?? "")
    if (cells[pathAt] !== undefined && !Number.isNaN(millis)) out.set(cells[pathAt]!, Math.floor(millis / 1000))
  }
  return out
}

export const loadCorpus = Effect.fn("loadCorpus")(function*(spec: CorpusSpec) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const exclude = spec.exclude ?? []
  const isExcluded = (file: string) => exclude.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry))
  const extensions = spec.includeCode === true ? new Set([...MARKDOWN_EXTENSIONS, ...CODE_EXTENSIONS]) : MARKDOWN_EXTENSIONS

  const snapshot = yield* discover({ root: spec.root })
  const files = snapshot.entities
    .flatMap((entity) => {
      const note = noteOf(entity.id)
      return note === undefined ? [] : [note]
    })
    .filter((file) => !isExcluded(file) && extensions.has(path.extname(file).toLowerCase()))
    .sort(compareIds)

  const history = spec.historyTsv === undefined ? undefined : readHistory(yield* fs.readFileString(spec.historyTsv))
  const documents = new Map<string, string>()
  const chunks: Array<Chunk> = []
  for (const file of files) {
    const text = yield* fs.readFileString(path.join(spec.root, file))
    documents.set(file, text)
    const committed = history?.get(file)
    // The history file dates a file, not its lines: every line carries the file's newest commit.
    const blame: ReadonlyArray<BlameLine> | undefined = committed === undefined
      ? undefined
      : text.split("\n").map((_, i) => ({ line: i + 1, authorTime: committed, author: "", authorMail: "" }))
    // Chunk boundaries by real cl100k tokens (the bounded counter), as the index sizes them.
    chunks.push(...(yield* chunkFile({ path: file, text, ...(blame === undefined ? {} : { history: blame }) }, { count: TokenCounterDefault.counter.count })
      .pipe(Effect.provide(NodeCrypto.layerDigest))))
  }

  const notes = new Set(files)
  // Canonicality over the corpus as indexed: a file left out of it (a README describing the corpus,
  // an excluded folder) neither votes nor is normalised against.
  const scores = canonicality({
    ...snapshot,
    entities: snapshot.entities.filter((entity) => {
      const note = noteOf(entity.id)
      return note === undefined || notes.has(note)
    })
  })
  const edges: Array<NoteEdge> = snapshot.relations.flatMap((relation) => {
    const from = noteOf(relation.from)
    const to = noteOf(relation.to)
    return from !== undefined && to !== undefined && notes.has(from) && notes.has(to) && from !== to
      ? [{ from, to, verb: relation.kind }]
      : []
  })

  const conflicts: Array<PlantedConflict & { readonly refs: ReadonlyArray<string> }> = spec.conflictsJson === undefined
    ? []
    : (JSON.parse(yield* fs.readFileString(spec.conflictsJson)) as Array<{ id: string; refs: Array<string>; resolved: boolean }>)
      .map((c) => ({ id: c.id, refs: c.refs, resolved: c.resolved }))
  const gapPremises: Array<GapPremise> = spec.gapsJson === undefined
    ? []
    : (JSON.parse(yield* fs.readFileString(spec.gapsJson)) as Array<{ id: string; question: string; mustNotAppear: Array<string> }>)
      .map((g) => ({ id: g.id, question: g.question, mustNotAppear: g.mustNotAppear }))

  const newestOf = (note: string): number =>
    Math.max(-Infinity, ...chunks.filter((c) => c.noteId === note && c.provenance.createdAt !== null).map((c) => Date.parse(c.provenance.createdAt!)))
  const staleNotes = new Set<string>([
    ...chunks.filter((c) => c.status === "superseded" || c.provenance.state === "superseded").map((c) => c.noteId),
    ...conflicts.filter((c) => !c.resolved && c.refs.length === 2).flatMap((c) => {
      const [a, b] = c.refs as [string, string]
      return newestOf(a) === newestOf(b) ? [] : [newestOf(a) < newestOf(b) ? a : b]
    })
  ])

  const anchor = spec.anchor !== undefined
    ? Date.parse(spec.anchor)
    : history === undefined ? Math.max(...chunks.map((c) => (c.provenance.createdAt === null ? 0 : Date.parse(c.provenance.createdAt))))
    : Math.max(...history.values()) * 1000
  return {
    name: spec.name,
    chunks,
    edges: edges.sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to) || compareIds(a.verb, b.verb)),
    documents,
    anchor,
    conflicts,
    gapPremises,
    staleNotes,
    canonicality: new Map([...scores].filter(([note]) => notes.has(note)))
  } satisfies EvalCorpus
})
