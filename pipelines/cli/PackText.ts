/**
 * The ContextPack for people (`cairn ask --text`, the default): one line per claim up top (its ref,
 * heading path and why it matched), then each passage with its best-matching sentence marked, then
 * conflicts, gaps and the budget. The wire JSON is untouched; this reads only the pack.
 */
import type * as ContextPack from "../../src/domain/ContextPack.ts"
import { FACTORS, type ScoreComponents } from "../../src/domain/ScoreComponents.ts"
import { namedTerms } from "../../src/retrieval/terms.ts"
import { bestSentence, type BestSentence, termsIn } from "../../src/retrieval/pack/bestSentence.ts"
import type { Term } from "../../src/retrieval/terms.ts"
import { defaults, type RetrievalConfigShape } from "../../src/RetrievalConfig.ts"

/** The gutter of a passage line that holds the marked sentence, and of every other line. */
export const MARK_GUTTER = " » "
const PLAIN_GUTTER = "   "

const significant = (x: number): number => Number(x.toPrecision(4))

/** The wire name of a component, as `--json` spells it. */
const wireName = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/** `--explain`'s account of a claim's score: its base, then every factor that moved it. */
const scoreLine = (components: ScoreComponents): string => {
  const base = components.rerank === null ? `rrf ${significant(components.rrf)}` : `rerank ${significant(components.rerank)}`
  const moved = FACTORS.filter((factor) => components[factor] !== 1).map((factor) => `${wireName(factor)} ${significant(components[factor])}`)
  return `${PLAIN_GUTTER}score = ${[base, ...moved].join(" × ")}${moved.length < FACTORS.length ? " (other factors 1)" : ""}`
}

/** A claim's text is `{title} > {heading path}` on its first line, then the passage. */
const headingOf = (claim: ContextPack.Claim): string => claim.text.split("\n", 1)[0]!.trim()
const bodyOf = (claim: ContextPack.Claim): string => claim.text.slice(claim.text.indexOf("\n") + 1 || claim.text.length)

const flagsOf = (claim: ContextPack.Claim): string =>
  [claim.kind, claim.status !== "current" ? claim.status : undefined, claim.truncated === true ? "truncated" : undefined]
    .filter((f) => f !== undefined).join(", ")

/** Why a claim is here, in the question's words: the terms it holds (`held`), or that only meaning matched. */
const whyLine = (claim: ContextPack.Claim, terms: ReadonlyArray<Term>, held: ReadonlyArray<number>): string => {
  if (terms.length === 0) return "no question words to match"
  const inHeading = new Set(termsIn(headingOf(claim), terms))
  if (held.length === 0) return "by meaning; none of the question's words"
  const words = held.map((i) => inHeading.has(i) ? `${terms[i]!.display} (heading)` : terms[i]!.display)
  return `matched ${words.join(", ")}`
}

/** Brackets around the best sentence where it does not fill the lines it touches. */
export const MARK_OPEN = "⟦"
export const MARK_CLOSE = "⟧"

/**
 * The passage, indented, with the lines holding the best sentence in the marked gutter; where the
 * sentence is only part of those lines it is bracketed too, so a reader sees exactly which words.
 */
const markedPassage = (body: string, best: BestSentence | undefined): string => {
  const lines = body.split("\n")
  const starts: Array<number> = []
  let offset = 0
  for (const line of lines) {
    starts.push(offset)
    offset += line.length + 1
  }
  const touches = (i: number) => best !== undefined && best.start < starts[i]! + lines[i]!.length && best.end > starts[i]!
  const touched = lines.map((_, i) => touches(i))
  const first = touched.indexOf(true)
  const last = touched.lastIndexOf(true)
  // Whole: only white space lies between the touched lines' edges and the sentence's.
  const whole = best !== undefined && first !== -1 &&
    body.slice(starts[first]!, best.start).trim() === "" && body.slice(best.end, starts[last]! + lines[last]!.length).trim() === ""
  const shown = lines.map((line, i) => {
    if (!touched[i] || best === undefined) return `${PLAIN_GUTTER}${line}`
    if (whole) return `${MARK_GUTTER}${line}`
    const start = starts[i]!
    const open = best.start >= start && best.start <= start + line.length ? best.start - start : -1
    const close = best.end >= start && best.end <= start + line.length ? best.end - start : -1
    let marked = line
    if (close !== -1) marked = `${marked.slice(0, close)}${MARK_CLOSE}${marked.slice(close)}`
    if (open !== -1) marked = `${marked.slice(0, open)}${MARK_OPEN}${marked.slice(open)}`
    return `${MARK_GUTTER}${marked}`
  })
  // Leading and trailing blank lines carry nothing for a reader.
  while (shown.length > 0 && shown[0]!.trim() === "") shown.shift()
  while (shown.length > 0 && shown.at(-1)!.trim() === "") shown.pop()
  return shown.join("\n")
}

/**
 * The text view of a pack. `config` supplies the stopwords and term rules the question's words are
 * read with (the retrieval defaults unless the repository overrides them), so "why it matched"
 * names exactly the terms stage 7 and the gap detector count.
 */
export const renderText = (pack: ContextPack.ContextPack, config: RetrievalConfigShape = defaults): string => {
  const terms = namedTerms(pack.query, config)
  // A term every claim holds tells the reader least; weigh each by how few claims hold it.
  const holders = terms.map(() => 0)
  const held = pack.claims.map((claim) => termsIn(claim.text, terms))
  for (const list of held) for (const i of list) holders[i]! += 1
  const weights = holders.map((n) => n === 0 ? 0 : 1 / n)

  const lines: Array<string> = []
  if (pack.claims.length > 0) {
    lines.push(`${pack.claims.length} ${pack.claims.length === 1 ? "claim" : "claims"}:`)
    pack.claims.forEach((claim, i) => lines.push(`${i + 1}. ${claim.ref}  ${headingOf(claim)}  (${flagsOf(claim)}; ${whyLine(claim, terms, held[i]!)})`))
    lines.push("")
  }
  pack.claims.forEach((claim, i) => {
    const body = bodyOf(claim)
    const best = bestSentence(body, terms, weights, { lines: claim.kind === "code" })
    const explained = claim.components === undefined ? "" : `\n${scoreLine(claim.components)}`
    lines.push(`${i + 1}. ${claim.ref}  (score ${claim.score}, ${flagsOf(claim)})${explained}`)
    const passage = markedPassage(body, best)
    if (passage !== "") lines.push(passage)
    lines.push("")
  })
  for (const conflict of pack.conflicts) lines.push(`conflict: ${conflict.topic}: ${conflict.note}\n${PLAIN_GUTTER}${conflict.refs.join(`\n${PLAIN_GUTTER}`)}`, "")
  for (const gap of pack.gaps) lines.push(`gap (${gap.reason}): ${gap.text}`)
  if (pack.gaps.length > 0) lines.push("")
  lines.push(`${pack.usedTokens}/${pack.budgetTokens} tokens in claims, ${pack.budget.report} in the report${pack.partial ? `, ${pack.budget.dropped} left out` : ""}; ` +
    `index lag ${pack.indexHealth.lagSeconds} s, ${pack.indexHealth.filesChanged ?? "unknown"} files changed since the build, embedding coverage ${pack.indexHealth.embeddingCoverage}`)
  if (pack.diagnostics !== undefined) {
    lines.push(`legs: ${pack.diagnostics.legs.map((leg) => `${leg.name} ${leg.status} (${leg.hits})`).join(", ")}`)
    if (pack.diagnostics.timingsMs !== undefined) {
      lines.push(`timings (ms): ${Object.entries(pack.diagnostics.timingsMs).map(([stage, ms]) => `${stage} ${ms}`).join(", ")}`)
    }
  }
  return lines.join("\n")
}
