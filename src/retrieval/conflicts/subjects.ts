/**
 * Whether two statements are about one subject: the per-kind gates from `conflictGates`, which count
 * shared terms, and three rules that see two subjects behind shared words (a different qualifier, a
 * different head noun, a different prepositional scope).
 */
import type { RetrievalConfigShape } from "../../RetrievalConfig.ts"
import type { Statement } from "./statements.ts"

export type ClashKind = "measure" | "count" | "choice" | "polarity"

export type Gate = RetrievalConfigShape["conflictGates"]["base"]

/** The kind's gate, raised field by field to the base gate: `base` is a floor for every kind. */
export const gateFor = (gates: RetrievalConfigShape["conflictGates"], kind: ClashKind): Gate => {
  const own = gates[kind]
  const base = gates.base
  return {
    minShared: Math.max(own.minShared, base.minShared),
    minSharedStatement: Math.max(own.minSharedStatement, base.minSharedStatement),
    minOverlap: Math.max(own.minOverlap, base.minOverlap),
    minDice: Math.max(own.minDice, base.minDice),
    minTerms: Math.max(own.minTerms, base.minTerms)
  }
}

export interface Overlap {
  readonly shared: Set<string>
  readonly chunkShared: number
  readonly dice: number
  readonly overlap: number
}

export const intersect = (a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> => {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  return new Set([...small].filter((term) => large.has(term)))
}

export const overlapOf = (a: Statement, b: Statement): Overlap => {
  const shared = intersect(a.terms, b.terms)
  const smaller = Math.min(a.terms.size, b.terms.size)
  const total = a.terms.size + b.terms.size
  return {
    shared,
    chunkShared: intersect(a.chunkTerms, b.chunkTerms).size,
    dice: total === 0 ? 0 : (2 * shared.size) / total,
    overlap: smaller === 0 ? 0 : shared.size / smaller
  }
}

export const clears = (gate: Gate, a: Statement, b: Statement, o: Overlap): boolean =>
  a.terms.size >= gate.minTerms && b.terms.size >= gate.minTerms &&
  o.shared.size >= gate.minSharedStatement && o.chunkShared >= gate.minShared &&
  o.overlap >= gate.minOverlap && o.dice >= gate.minDice

/** Words after which the word before is the head of a subject: `the search index is`. */
const AUXILIARIES = new Set(["is", "are", "was", "were", "has", "have", "had", "will", "would", "must", "should", "can", "may", "might", "does", "do", "did"])

/**
 * The content words that qualify `term` in a statement: the word right before it (`session` in
 * `session tokens`), and the head noun right after it when a verb follows (`index` in `the search
 * index is rebuilt`).
 */
const qualifiers = (s: Statement, term: string): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < s.words.length; i++) {
    if (s.words[i]!.term !== term) continue
    const before = s.words[i - 1]?.term
    if (before !== undefined) out.push(before)
    const after = s.words[i + 1]?.term
    if (after !== undefined && AUXILIARIES.has(s.words[i + 2]?.surface ?? "")) out.push(after)
  }
  return out
}

/**
 * Whether a shared term is qualified differently on each side by words the other side lacks:
 * `session tokens` against `refresh tokens` share `token`, `search index` against `search cache`
 * share `search`, and each pair names two subjects.
 */
const distinctQualifiers = (a: Statement, b: Statement, shared: ReadonlySet<string>, values: ReadonlySet<string>): boolean =>
  [...shared].some((term) => {
    if (values.has(term)) return false
    const own = (s: Statement, other: Statement) =>
      qualifiers(s, term).some((q) => !values.has(q) && !other.terms.has(q))
    return own(a, b) && own(b, a)
  })

/** Prepositions whose object scopes a statement: `in production`, `to the vault`. */
const SCOPE_PREPOSITIONS = new Set(["in", "on", "at", "for", "to", "from", "with", "per", "during", "across", "inside", "into", "via", "by", "under"])
const DETERMINERS = new Set(["the", "a", "an", "our", "their", "its", "this", "that", "these", "those", "each", "every", "all", "any", "some"])

/** The content term each occurrence of `preposition` takes as its object, past any determiner. */
const scopeObjects = (s: Statement, preposition: string): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < s.words.length; i++) {
    if (s.words[i]!.surface !== preposition) continue
    let k = i + 1
    while (k < s.words.length && DETERMINERS.has(s.words[k]!.surface)) k++
    // A number, a unit or another preposition ends the search: `for 14 days` scopes nothing.
    const object = s.words[k]?.term
    if (object !== undefined) out.push(object)
  }
  return out
}

/**
 * Whether the two statements scope themselves differently by one preposition, each with an object
 * the other never mentions: `in production` against `in staging` are two subjects.
 */
const distinctScopes = (a: Statement, b: Statement, values: ReadonlySet<string>): boolean =>
  [...SCOPE_PREPOSITIONS].some((preposition) => {
    const own = scopeObjects(a, preposition).filter((t) => !values.has(t))
    const other = scopeObjects(b, preposition).filter((t) => !values.has(t))
    return own.length > 0 && other.length > 0 && own.every((t) => !b.terms.has(t)) && other.every((t) => !a.terms.has(t))
  })

/** Whether nothing marks the two statements as being about different things. */
export const oneSubject = (a: Statement, b: Statement, shared: ReadonlySet<string>, values: ReadonlySet<string>): boolean =>
  !distinctQualifiers(a, b, shared, values) && !distinctScopes(a, b, values)
