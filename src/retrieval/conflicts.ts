/**
 * The conflict detector: statements of different notes that disagree about one subject with no
 * recorded resolution. A conflict needs all three of
 *
 * - a shared subject: the two statements clear every gate of their clash kind in `conflictGates`,
 *   and nothing marks them as two subjects (conflicts/subjects.ts);
 * - a named clash: quantities that cannot both hold once units are normalised (`measure`), different
 *   counts of one thing (`count`), different names chosen for one role (`choice`), or a negation
 *   against a plain affirmation of what it negates (`polarity`), as conflicts/clashes.ts reads them
 *   from statements conflicts/statements.ts cuts;
 * - no recorded resolution: no `supersedes` edge between the two notes in either direction, and
 *   neither chunk superseded by its status or its trust state.
 *
 * The candidates are the ranked survivors and the near-duplicates dedup folded into them, so a
 * disagreement dedup hid is still seen; `refs` name every side's chunks, never narrowed to what the
 * packer admits. Input order never matters: statements are read in chunk id order and every sort
 * ends on an id.
 */
import { Context, Layer } from "effect"
import type { Candidate } from "../domain/Candidate.ts"
import type { Conflict } from "../domain/Conflict.ts"
import { compareIds } from "../domain/Ranking.ts"
import type { NoteEdge } from "../ports/GraphStore.ts"
import type { RetrievalConfigShape } from "../RetrievalConfig.ts"
import { sameName } from "./conflicts/clashes.ts"
import { conflictNote } from "./conflicts/note.ts"
import { agreeOn, clashingKey } from "./conflicts/quantities.ts"
import { type Analysis, analysisFor, type Statement, statementsOf } from "./conflicts/statements.ts"
import { type ClashKind, clears, gateFor, intersect, type Overlap, oneSubject, overlapOf } from "./conflicts/subjects.ts"
import { claimRef } from "./pack.ts"

export type { ClashKind } from "./conflicts/subjects.ts"

export type ConflictConfig = Pick<RetrievalConfigShape, "maxConflicts" | "conflictGates" | "gapStopwords">

export interface ConflictInput {
  /** The ranked survivors and the near-duplicates folded into them, in any order. */
  readonly candidates: ReadonlyArray<Candidate>
  /** Edges among the candidates' notes; a `supersedes` edge is a recorded resolution. */
  readonly edges: ReadonlyArray<NoteEdge>
  readonly config: ConflictConfig
}

/** Tried in this order; a pair of statements clashes by the first kind that clears its gates. */
const KINDS: ReadonlyArray<ClashKind> = ["measure", "count", "choice", "polarity"]

/** Verbs that record one note replacing another. */
const SUPERSESSION_VERBS = new Set(["supersedes", "superseded_by", "superseded-by"])

/** Words of the topic phrase. */
const TOPIC_WORDS = 4

/** Two statements of different notes that disagree, with the evidence that they share a subject. */
export interface Clash {
  readonly kind: ClashKind
  /** What they disagree on: a dimension, a counted noun's term, `choice`, or the negated term. */
  readonly key: string
  /** The statement read first (chunk id, then position). */
  readonly a: Statement
  readonly b: Statement
  /** Content terms the two statements share. */
  readonly shared: ReadonlySet<string>
  /** Terms that are the clash itself (a chosen name, a counted noun, a negated verb), not its subject. */
  readonly valueTerms: ReadonlySet<string>
  /** Dice coefficient of the two statements' terms. */
  readonly dice: number
  /** Shared terms over the smaller statement's terms. */
  readonly overlap: number
}

// ---- clash kinds ------------------------------------------------------------------------------

interface Found {
  readonly key: string
  readonly valueTerms: ReadonlySet<string>
}

/** The negated term of `neg` that `pos` plainly affirms, if any. */
const polarityKey = (neg: Statement, pos: Statement): string | undefined =>
  pos.clashes.negated ? undefined : neg.clashes.negations.find((n) => pos.terms.has(n.term))?.term

const find = (kind: ClashKind, a: Statement, b: Statement, analysis: Analysis): Found | undefined => {
  const x = a.clashes, y = b.clashes
  switch (kind) {
    case "measure": {
      if (x.measures.length === 0 || y.measures.length === 0) return undefined
      const key = clashingKey(x.measures, y.measures)
      return key === undefined ? undefined : { key, valueTerms: new Set() }
    }
    case "count": {
      if (x.counts.length === 0 || y.counts.length === 0) return undefined
      const key = clashingKey(x.counts, y.counts)
      return key === undefined ? undefined : { key, valueTerms: new Set([key]) }
    }
    case "choice": {
      if (x.choice === null || y.choice === null || sameName(x.choice.name, y.choice.name)) return undefined
      if (intersect(x.choice.role, y.choice.role).size === 0) return undefined
      const names = [...x.choice.name, ...y.choice.name].map(analysis.analyse).filter((t) => t !== undefined)
      return { key: "choice", valueTerms: new Set(names) }
    }
    case "polarity": {
      if (x.conditional || y.conditional || x.negated === y.negated) return undefined
      const key = polarityKey(a, b) ?? polarityKey(b, a)
      return key === undefined ? undefined : { key, valueTerms: new Set([key]) }
    }
  }
}

/** The first kind by which two statements of different notes clash and share a subject. */
const clashOf = (a: Statement, b: Statement, config: ConflictConfig, analysis: Analysis): Clash | undefined => {
  let o: Overlap | undefined
  for (const kind of KINDS) {
    const found = find(kind, a, b, analysis)
    if (found === undefined) continue
    o ??= overlapOf(a, b)
    if (!clears(gateFor(config.conflictGates, kind), a, b, o)) continue
    if (!oneSubject(a, b, o.shared, found.valueTerms)) continue
    return { kind, key: found.key, a, b, shared: o.shared, valueTerms: found.valueTerms, dice: o.dice, overlap: o.overlap }
  }
  return undefined
}

const pairKey = (a: Statement, b: Statement): string => (a.id < b.id ? `${a.id}\n${b.id}` : `${b.id}\n${a.id}`)

const resolvedPairs = (edges: ReadonlyArray<NoteEdge>): Set<string> => {
  const out = new Set<string>()
  for (const edge of edges) {
    if (!SUPERSESSION_VERBS.has(edge.verb.toLowerCase())) continue
    out.add(`${edge.from}\n${edge.to}`)
    out.add(`${edge.to}\n${edge.from}`)
  }
  return out
}

/**
 * Index pairs (i < j) worth comparing. When every kind demands a shared statement term, only pairs
 * that share one are visited, through an inverted index; otherwise every pair is.
 */
const pairs = function*(statements: ReadonlyArray<Statement>, config: ConflictConfig): Generator<readonly [number, number]> {
  const needShared = Math.min(...KINDS.map((kind) => gateFor(config.conflictGates, kind).minSharedStatement))
  if (needShared < 1) {
    for (let i = 0; i < statements.length; i++) for (let j = i + 1; j < statements.length; j++) yield [i, j]
    return
  }
  const postings = new Map<string, Array<number>>()
  statements.forEach((s, i) => {
    for (const term of s.terms) {
      const list = postings.get(term)
      if (list === undefined) postings.set(term, [i])
      else list.push(i)
    }
  })
  for (let i = 0; i < statements.length; i++) {
    const partners = new Set<number>()
    for (const term of statements[i]!.terms) for (const j of postings.get(term)!) if (j > i) partners.add(j)
    for (const j of [...partners].sort((x, y) => x - y)) yield [i, j]
  }
}

const byStrength = (x: Clash, y: Clash): number =>
  y.dice - x.dice || y.overlap - x.overlap || compareIds(x.a.id, y.a.id) || compareIds(x.b.id, y.b.id)

/**
 * Every clash between statements of different, unresolved notes, strongest first. Exposed so the
 * pairwise evidence can be inspected and tested apart from the grouping into conflicts.
 */
export const findClashes = (input: ConflictInput): Array<Clash> => {
  const analysis = analysisFor(input.config.gapStopwords)
  const statements = statementsOf(input.candidates, analysis)
  const resolved = resolvedPairs(input.edges)
  const out: Array<Clash> = []
  for (const [i, j] of pairs(statements, input.config)) {
    const a = statements[i]!, b = statements[j]!
    if (a.note === b.note || resolved.has(`${a.note}\n${b.note}`)) continue
    const clash = clashOf(a, b, input.config, analysis)
    if (clash !== undefined) out.push(clash)
  }
  return out.sort(byStrength)
}

// ---- grouping clashes into conflicts ----------------------------------------------------------

/** Whether `s` says what `pivot` says on the clash's key. */
const sameSide = (s: Statement, pivot: Statement, clash: Clash): boolean => {
  switch (clash.kind) {
    case "measure":
      return agreeOn(s.clashes.measures, pivot.clashes.measures, clash.key)
    case "count":
      return agreeOn(s.clashes.counts, pivot.clashes.counts, clash.key)
    case "choice":
      return s.clashes.choice !== null && pivot.clashes.choice !== null && sameName(s.clashes.choice.name, pivot.clashes.choice.name)
    case "polarity":
      return pivot.clashes.negations.some((n) => n.term === clash.key)
        ? s.clashes.negations.some((n) => n.term === clash.key)
        : !s.clashes.negated && s.terms.has(clash.key)
  }
}

interface Group {
  readonly pivot: Clash
  readonly sides: readonly [Array<Statement>, Array<Statement>]
}

/**
 * One conflict per strongest uncovered clash: its two statements, joined by every statement that
 * says the same as one side and clashes (same kind and key) with every statement of the other, so
 * a claim dedup folded into a near-duplicate is reported with it, once.
 */
const group = (clashes: ReadonlyArray<Clash>): Array<Group> => {
  const byPair = new Map(clashes.map((clash) => [pairKey(clash.a, clash.b), clash]))
  const clashesWith = (x: Statement, y: Statement, pivot: Clash): boolean => {
    const clash = byPair.get(pairKey(x, y))
    return clash !== undefined && clash.kind === pivot.kind && clash.key === pivot.key
  }
  const covered = new Set<string>()
  const groups: Array<Group> = []
  for (const pivot of clashes) {
    if (covered.has(pairKey(pivot.a, pivot.b))) continue
    const sides: readonly [Array<Statement>, Array<Statement>] = [[pivot.a], [pivot.b]]
    const placed = new Set([pivot.a.id, pivot.b.id])
    const related = clashes.filter((c) => c !== pivot && c.kind === pivot.kind && c.key === pivot.key)
    // Until nothing joins: a statement may become joinable once another has.
    for (let grew = true; grew;) {
      grew = false
      for (const clash of related) {
        for (const [x, y] of [[clash.a, clash.b], [clash.b, clash.a]] as const) {
          // `x` may join the side of whichever pivot statement it agrees with, opposite `y`'s.
          if (placed.has(x.id) || !placed.has(y.id)) continue
          const side = sameSide(x, pivot.a, pivot) ? 0 : sameSide(x, pivot.b, pivot) ? 1 : -1
          if (side === -1) continue
          if (sides[1 - side]!.every((m) => clashesWith(x, m, pivot))) {
            sides[side]!.push(x)
            placed.add(x.id)
            grew = true
          }
        }
      }
    }
    for (const x of sides[0]) for (const y of sides[1]) covered.add(pairKey(x, y))
    groups.push({ pivot, sides })
  }
  return groups
}

const distinct = (labels: ReadonlyArray<string>): string => [...new Set(labels)].join("/")

/** What one side says, from its first statement: `24h`, `3 replicas`, `Kafka`, `never stores`. */
const sideLabel = (pivot: Statement, clash: Clash): string => {
  const c = pivot.clashes
  switch (clash.kind) {
    case "measure":
      return distinct(c.measures.filter((q) => q.key === clash.key).map((q) => q.label))
    case "count":
      return distinct(c.counts.filter((q) => q.key === clash.key).map((q) => q.label))
    case "choice":
      return c.choice?.label ?? ""
    case "polarity":
      return c.negations.find((n) => n.term === clash.key)?.label ??
        pivot.words.find((w) => w.term === clash.key)?.surface ?? clash.key
  }
}

const noteOf = (g: Group): string =>
  conflictNote(g.sides.map((side) => ({
    label: sideLabel(side[0]!, g.pivot),
    createdAt: side.map((s) => s.candidate.chunk.provenance.createdAt),
    tieBreak: side[0]!.id
  })))

// ---- the detector -----------------------------------------------------------------------------

/** The shared subject in the pivot's words and order, the clash's own terms left out when others remain. */
const topicOf = (clash: Clash): string => {
  const subject = new Set([...clash.shared].filter((term) => !clash.valueTerms.has(term)))
  const terms = subject.size > 0 ? subject : clash.shared
  const out: Array<string> = []
  const seen = new Set<string>()
  for (const word of clash.a.words) {
    if (out.length === TOPIC_WORDS) break
    if (word.term === undefined || !terms.has(word.term) || seen.has(word.term)) continue
    seen.add(word.term)
    out.push(word.surface)
  }
  return out.length > 0 ? out.join(" ") : clash.kind
}

/** At most `maxConflicts` conflicts, strongest shared subject first, then by topic, note and refs. */
export const detect = (input: ConflictInput): Array<Conflict> => {
  const seen = new Set<string>()
  const ranked: Array<{ conflict: Conflict; dice: number; overlap: number }> = []
  for (const g of group(findClashes(input))) {
    const refs = [...new Set([...g.sides[0], ...g.sides[1]].map((s) => claimRef(s.candidate)))].sort(compareIds)
    const conflict: Conflict = { topic: topicOf(g.pivot), refs, note: noteOf(g) }
    const key = JSON.stringify(conflict)
    if (seen.has(key)) continue
    seen.add(key)
    ranked.push({ conflict, dice: g.pivot.dice, overlap: g.pivot.overlap })
  }
  return ranked
    .sort((x, y) =>
      y.dice - x.dice || y.overlap - x.overlap || compareIds(x.conflict.topic, y.conflict.topic) ||
      compareIds(x.conflict.note, y.conflict.note) || compareIds(x.conflict.refs.join("\n"), y.conflict.refs.join("\n"))
    )
    .slice(0, Math.max(0, input.config.maxConflicts))
    .map((r) => r.conflict)
}

export class ConflictDetector extends Context.Service<ConflictDetector, {
  /** At most `maxConflicts` conflicts; the same input in any order gives the same output. */
  readonly detect: (input: ConflictInput) => ReadonlyArray<Conflict>
}>()("cairn/retrieval/ConflictDetector") {}

export const layer: Layer.Layer<ConflictDetector> = Layer.succeed(ConflictDetector, { detect })
