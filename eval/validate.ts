/**
 * The question validator: errors make a set unusable (a question that cannot be scored as written),
 * warnings list traps that can never fire and intent disagreements. The intent check is a warning on
 * purpose: a disagreement is a finding about the classifier, and making it an error would let
 * somebody green the gate by editing an expectation to match the code.
 */
import { classify } from "../src/retrieval/intent.ts"
import { corpusContains, type EvalCorpus, lineOf } from "./Corpus.ts"
import { kindOf } from "./Question.ts"
import type { LoadedQuestion } from "./run.ts"

export interface Validation {
  readonly errors: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<string>
}

/** A heading compared as text: no leading hashes, no inline-code or emphasis marks, folded. */
const headingText = (block: string): string => block.replace(/^#+\s*/u, "").replace(/[`*_]/gu, "").replace(/\s+/gu, " ").trim().toLowerCase()

export const validate = (
  questions: ReadonlyArray<LoadedQuestion>,
  corpus: EvalCorpus,
  options: { readonly intent?: boolean; readonly otherIds?: ReadonlySet<string> } = {}
): Validation => {
  const errors: Array<string> = []
  const warnings: Array<string> = []
  const contains = corpusContains(corpus)
  const seen = new Map<string, string>()
  for (const { file, question: q } of questions) {
    const where = `${file} ${q.id}`
    const previous = seen.get(q.id)
    if (previous !== undefined) errors.push(`${where}: id also used in ${previous}`)
    if (options.otherIds?.has(q.id) === true) errors.push(`${where}: id also used in another question set`)
    seen.set(q.id, file)
    const kind = kindOf(q)
    if (kind !== "adversarial" && q.question.trim() === "") errors.push(`${where}: empty question`)
    if (new Set(q.relevant).size !== q.relevant.length) errors.push(`${where}: duplicate relevant paths`)
    for (const path of [...q.relevant, ...(q.nearest ?? [])]) {
      if (!corpus.documents.has(path)) errors.push(`${where}: ${path} is not in the corpus`)
    }
    if (kind === "positive") {
      if (q.primary === undefined || q.primary === null || !q.relevant.includes(q.primary)) {
        errors.push(`${where}: primary must be one of relevant`)
      }
      for (const needle of q.mustContain ?? []) {
        if (!q.relevant.some((path) => lineOf(corpus, path, needle))) {
          errors.push(`${where}: mustContain "${needle}" is on no line of a relevant document as chunked`)
        }
      }
      if (q.primaryBlock !== undefined && typeof q.primary === "string") {
        const wanted = headingText(q.primaryBlock)
        const found = corpus.chunks.some((c) =>
          c.noteId === q.primary && (c.headingPath.some((h) => headingText(h) === wanted) || headingText(c.title) === wanted))
        if (!found) errors.push(`${where}: primaryBlock "${q.primaryBlock}" is no heading of ${q.primary}`)
      }
      for (const decoy of q.mustNotContain ?? []) {
        if (!contains(decoy)) warnings.push(`${where}: decoy "${decoy}" occurs nowhere in the corpus, so the trap can never fire`)
      }
    }
    if (kind === "negative") {
      for (const absent of q.mustNotContain ?? []) {
        if (contains(absent)) errors.push(`${where}: "${absent}" must occur nowhere, but the corpus contains it`)
      }
      if (q.gapId !== undefined) {
        const premise = corpus.gapPremises.find((p) => p.id === q.gapId)
        if (premise === undefined) errors.push(`${where}: gapId ${q.gapId} is not a gap premise of the corpus`)
        else if (JSON.stringify([...premise.mustNotAppear].sort()) !== JSON.stringify([...(q.mustNotContain ?? [])].sort())) {
          errors.push(`${where}: mustNotContain must equal gap ${q.gapId}'s mustNotAppear`)
        }
      }
    }
    if (kind === "adversarial") {
      if (q.expect === undefined) errors.push(`${where}: an adversarial question needs expect`)
      if (q.pastedFrom !== undefined) {
        const source = corpus.documents.get(q.pastedFrom)
        if (source === undefined) errors.push(`${where}: pastedFrom ${q.pastedFrom} is not in the corpus`)
        else if (source !== q.question) errors.push(`${where}: the pasted payload does not byte-match ${q.pastedFrom}`)
      }
    }
    if (options.intent === true && kind === "positive") {
      const weights = classify(q.question).typeWeights
      const top = Object.entries(weights).sort(([, a], [, b]) => b - a)[0]
      if (top !== undefined && top[1] > 1 && top[0] !== q.intent) warnings.push(`${where}: declared ${q.intent}, classified ${top[0]}`)
      if (top !== undefined && top[1] <= 1) warnings.push(`${where}: declared ${q.intent}, no cue fired`)
    }
  }
  return { errors, warnings }
}
