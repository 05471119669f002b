/**
 * Statements, the unit conflicts are found at: a chunk's body cut into sentences, list items and
 * table rows, each analysed with the project's tokenizer and stemmer. Chunk against chunk washes the
 * signal out (one paragraph says both "once a day" and "48 hours"), so the detector compares these.
 */
import type { Candidate } from "../../domain/Candidate.ts"
import type { Chunk } from "../../domain/Chunk.ts"
import { compareIds } from "../../domain/Ranking.ts"
import { stem } from "../../text/Porter.ts"
import { surfaces, terms, words } from "../../text/Words.ts"
import { CLASH_WORDS, type Clashes, readClashes } from "./clashes.ts"
import type { Analyse } from "./quantities.ts"

/** Function words the gap stopword list leaves in, which never name a subject either. */
const FUNCTION_WORDS = [
  "after", "before", "per", "each", "every", "only", "also", "just", "must", "may", "might", "shall", "always",
  "now", "still", "most", "more", "less", "least", "both", "either", "other", "such", "same", "via", "over",
  "under", "up", "within", "until", "while", "but", "very", "too", "here", "once", "twice", "instead", "rather",
  "currently", "new", "old", "whole", "ever", "yet", "since", "because", "unless", "except", "without"
]

/**
 * General English folded to one concept, so two notes that say "stores" and "retains" meet. It holds
 * no domain word on purpose: a table of one corpus's vocabulary quietly tunes the detector to it.
 */
const CONCEPT_CLASSES: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["store", ["store", "stored", "stores", "storing", "hold", "holds", "held", "keep", "keeps", "kept", "retain", "retains", "retained", "retention", "persist", "persists", "persisted"]],
  ["expire", ["expire", "expires", "expired", "expiry", "expiration", "ttl", "lifetime"]],
  ["delete", ["delete", "deletes", "deleted", "deletion", "purge", "purged", "purges", "remove", "removed", "removes"]]
]

export interface Word {
  /** Folded as the tokenizer emits it. */
  readonly surface: string
  /** Stemmed and concept-folded; undefined when the word names no subject. */
  readonly term: string | undefined
}

export interface Statement {
  /** `<chunk id>@<index>`; index is the statement's position in its chunk. */
  readonly id: string
  readonly candidate: Candidate
  readonly note: string
  /** Cleaned text: markup removed, contractions expanded. */
  readonly text: string
  readonly words: ReadonlyArray<Word>
  /** Content terms of the statement alone. */
  readonly terms: ReadonlySet<string>
  /** Content terms of the whole chunk, heading line included. */
  readonly chunkTerms: ReadonlySet<string>
  readonly clashes: Clashes
}

/** Term analysis for one stopword list: stem, drop what names no subject, fold concepts. */
export interface Analysis {
  readonly analyse: Analyse
  readonly contentTerms: (text: string) => Set<string>
}

const excludedTerms = new WeakMap<ReadonlyArray<string>, ReadonlySet<string>>()

const CONCEPTS: ReadonlyMap<string, string> = new Map(
  CONCEPT_CLASSES.flatMap(([concept, members]) => members.map((member) => [stem(member), stem(concept)] as const))
)

const analyses = new WeakMap<ReadonlyArray<string>, Analysis>()

/** The analysis for a stopword list: one per list, so its memo and the statement cache persist across queries. */
export const analysisFor = (stopwords: ReadonlyArray<string>): Analysis => {
  let analysis = analyses.get(stopwords)
  if (analysis === undefined) {
    analysis = makeAnalysis(stopwords)
    analyses.set(stopwords, analysis)
  }
  return analysis
}

const makeAnalysis = (stopwords: ReadonlyArray<string>): Analysis => {
  let excluded = excludedTerms.get(stopwords)
  if (excluded === undefined) {
    excluded = new Set([...stopwords, ...FUNCTION_WORDS, ...CLASH_WORDS].flatMap((word) => terms(word)))
    excludedTerms.set(stopwords, excluded)
  }
  const stems = new Map<string, string | undefined>()
  const fromStem = (term: string): string | undefined =>
    term.length < 2 || /\d/.test(term) || excluded.has(term) ? undefined : CONCEPTS.get(term) ?? term
  const analyseSurface = (surface: string): string | undefined => {
    if (stems.has(surface)) return stems.get(surface)
    const term = fromStem(stem(surface))
    stems.set(surface, term)
    return term
  }
  return {
    analyse: (word) => {
      const folded = words(word)[0]
      return folded === undefined ? undefined : analyseSurface(folded)
    },
    contentTerms: (text) => {
      const out = new Set<string>()
      for (const surface of surfaces(text)) {
        const content = analyseSurface(surface)
        if (content !== undefined) out.add(content)
      }
      return out
    }
  }
}

// ---- cutting a chunk into statements ----------------------------------------------------------

/** Markup that carries no claim: emphasis, code ticks, link targets, wikilink brackets. */
const clean = (text: string): string =>
  text
    .replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/gu, "$2")
    .replace(/\[\[([^\]]*)\]\]/gu, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/gu, "$1")
    .replace(/[`*]/gu, "")
    .replace(/\bcan['’]t\b/giu, "can not")
    .replace(/\bwon['’]t\b/giu, "will not")
    .replace(/n['’]t\b/giu, " not")
    .replace(/\s+/gu, " ")
    .trim()

const FENCE = /^\s*(```|~~~)/u
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/u
/** An observation's category tag at the start of an item: `[decision] ...`. */
const CATEGORY = /^\[[\p{L}\p{N} _-]{1,30}\]\s*/u
const TABLE_RULE = /^\s*\|?[\s:|-]+\|?\s*$/u
/** A sentence ends at . ! ? followed by space and something that can start one; a semicolon always ends a clause. */
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(\[])|(?<=;)\s+/u

/** Paragraphs and list items of a chunk body (heading line already removed), and its table rows. */
const blocks = (body: string): Array<string> => {
  const out: Array<string> = []
  let current: Array<string> = []
  let fenced = false
  const flush = () => {
    if (current.length > 0) out.push(current.join(" "))
    current = []
  }
  for (const line of body.split("\n")) {
    if (FENCE.test(line)) {
      flush()
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const trimmed = line.trim()
    if (trimmed === "" || trimmed.startsWith("#")) {
      flush()
      continue
    }
    if (trimmed.startsWith("|")) {
      flush()
      if (!TABLE_RULE.test(trimmed)) out.push(trimmed.split("|").map((cell) => cell.trim()).filter((c) => c !== "").join(" "))
      continue
    }
    if (LIST_ITEM.test(line)) {
      flush()
      current.push(line.replace(LIST_ITEM, "").replace(CATEGORY, ""))
      continue
    }
    current.push(trimmed.replace(/^>\s*/u, ""))
  }
  flush()
  return out
}

/** The statements of one chunk's body, cleaned, in order. The first line is the heading path. */
export const splitStatements = (text: string): Array<string> => {
  const newline = text.indexOf("\n")
  if (newline === -1) return []
  return blocks(text.slice(newline + 1))
    .flatMap((block) => block.split(SENTENCE_BREAK))
    .map(clean)
    .filter((statement) => statement.length > 0)
}

/** Candidates that may take a side: written prose whose note is not superseded, one per chunk id. */
const eligible = (candidates: ReadonlyArray<Candidate>): Array<Candidate> => {
  const byId = new Map<string, Candidate>()
  const sorted = [...candidates].sort((a, b) => compareIds(a.chunk.id, b.chunk.id) || compareIds(a.chunk.text, b.chunk.text))
  for (const candidate of sorted) {
    const { chunk } = candidate
    if (chunk.status === "superseded" || chunk.provenance.state === "superseded") continue
    if (chunk.isLinkList || chunk.noteType === "code") continue
    if (!byId.has(chunk.id)) byId.set(chunk.id, candidate)
  }
  return [...byId.values()]
}

// A chunk's statements depend only on its text and the analysis; stores hand back the same chunk
// objects query after query, so each is read once.
const statementCache = new WeakMap<Analysis, WeakMap<Chunk, ReadonlyArray<Omit<Statement, "candidate">>>>()

const chunkStatements = (chunk: Chunk, analysis: Analysis): ReadonlyArray<Omit<Statement, "candidate">> => {
  let byChunk = statementCache.get(analysis)
  if (byChunk === undefined) statementCache.set(analysis, (byChunk = new WeakMap()))
  let statements = byChunk.get(chunk)
  if (statements === undefined) {
    const chunkTerms = analysis.contentTerms(chunk.text)
    statements = splitStatements(chunk.text).map((text, index) => {
      const folded = words(text)
      return {
        id: `${chunk.id}@${index}`,
        note: chunk.noteId,
        text,
        words: folded.map((surface) => ({ surface, term: analysis.analyse(surface) })),
        terms: analysis.contentTerms(text),
        chunkTerms,
        clashes: readClashes(text, folded, analysis.analyse)
      }
    })
    byChunk.set(chunk, statements)
  }
  return statements
}

/** Every statement of the eligible candidates, in chunk id then position order. */
export const statementsOf = (candidates: ReadonlyArray<Candidate>, analysis: Analysis): Array<Statement> =>
  eligible(candidates).flatMap((candidate) => chunkStatements(candidate.chunk, analysis).map((s): Statement => ({ ...s, candidate })))
