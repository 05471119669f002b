/**
 * The bench's two outputs: `results.json` (everything, keys sorted so runs diff cleanly; per-claim
 * score components only for failures) and `report.md`, in a fixed order: the gate, slices,
 * coverage, negatives, traps, conflicts, tokens, latency, conditions against the first, then the
 * failure list whose component columns multiply out to the score.
 */
import { skippedLine } from "./baselines.ts"
import type { GateCheck } from "./gates.ts"
import * as M from "./metrics.ts"
import { kindOf } from "./Question.ts"
import type { BenchResult, ConditionResult } from "./run.ts"
import { compareIds } from "../src/domain/Ranking.ts"

const f4 = (n: number | undefined) => (n === undefined ? "—" : n.toFixed(4))
const f1 = (n: number) => n.toFixed(1)

/** JSON with object keys sorted at every level. */
export const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => compareIds(a, b)))
      : v instanceof Set ? [...v].sort() : v, 2)

const isFailure = (o: M.Observation) => kindOf(o.question) === "positive" && M.hitAt(o, 5) === 0

/** results.json: failures keep the components of their top candidates; others drop them to stay diffable. */
export const resultsJson = (bench: BenchResult, gate: ReadonlyArray<GateCheck> | undefined, config: unknown): string =>
  stableJson({
    ...bench,
    config,
    gate: gate ?? null,
    conditions: bench.conditions.map((c) => ({
      ...c,
      observations: c.observations.map((o) => ({
        id: o.question.id,
        file: o.file,
        verdict: M.verdict(o) ?? null,
        hitAt5: kindOf(o.question) === "positive" ? M.hitAt(o, 5) : null,
        claims: o.claims.map((claim) => claim.ref),
        gaps: o.gaps,
        conflicts: o.conflicts,
        usedTokens: o.usedTokens,
        latencyMs: Math.round(o.latencyMs * 1000) / 1000,
        error: o.error ?? null,
        answerability: o.answerability ?? null,
        ...(isFailure(o) ? { components: o.components ?? null } : {})
      }))
    }))
  })

const sliceTable = (result: ConditionResult, title: string, key: (o: ConditionResult["observations"][number]) => string): Array<string> => {
  const groups = new Map<string, Array<ConditionResult["observations"][number]>>()
  for (const o of result.observations) {
    const k = key(o)
    let list = groups.get(k)
    if (list === undefined) groups.set(k, (list = []))
    list.push(o)
  }
  const lines = [`### By ${title}`, "", "| slice | questions | scored | hit@5 | precision@1 | precision@5 | MRR | nDCG@10 | CCH_r |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
  for (const [name, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const r = M.rankingSummary(list)
    const v = M.summariseVerdicts(list)
    const scored = (n: number) => (r.count === 0 ? "—" : f4(n))
    lines.push(`| ${name} | ${list.length} | ${r.count} | ${scored(r.hitAt5)} | ${scored(r.precisionAt1)} | ${scored(r.precisionAt5)} | ${scored(r.mrr)} | ${scored(r.ndcgAt10)} | ${v.judged === 0 ? "—" : f4(v.cch)} |`)
  }
  return [...lines, ""]
}

const componentColumns = ["rrf", "rerank", "typeWeight", "relationWeight", "hopPenalty", "noteSupport", "termCoverage", "noteCoverage", "linkConsensus", "freshness", "verification", "authorKind", "canonicality"] as const

export const reportMarkdown = (
  bench: BenchResult,
  gate: ReadonlyArray<GateCheck> | undefined,
  context: { readonly command: string; readonly split: string }
): string => {
  const lines: Array<string> = []
  const main = bench.conditions[0]
  lines.push(`# Bench report: ${bench.corpus}`, "")
  lines.push(`Command: \`${context.command}\`. Split: ${context.split}. Anchor ${bench.anchor.slice(0, 10)}, budget ${bench.budgetTokens}, ${bench.questionCount} questions.`, "")
  lines.push("## Gate", "")
  if (gate === undefined) lines.push("Not gated: this run reports and exits 0 (run with `--gate` to enforce).", "")
  else {
    lines.push(`**${gate.every((c) => c.pass) ? "PASS" : "FAIL"}**`, "", "| check | result | detail |", "| --- | --- | --- |")
    for (const c of gate) lines.push(`| ${c.name} | ${c.pass ? "pass" : "**FAIL**"} | ${c.detail.replace(/\|/gu, "\\|")} |`)
    lines.push("")
  }
  if (main === undefined) return lines.join("\n")
  const s = main.summary
  lines.push(`## Summary (${main.condition})`, "")
  lines.push("| metric | value | oracle ceiling |", "| --- | --- | --- |")
  lines.push(`| hit@5 | ${f4(s.ranking.hitAt5)} | ${f4(s.ranking.oracle.hitAt5)} |`)
  lines.push(`| hit@10 | ${f4(s.ranking.hitAt10)} | |`)
  lines.push(`| precision@1 | ${f4(s.ranking.precisionAt1)} | |`)
  lines.push(`| precision@5 (claim) | ${f4(s.ranking.precisionAt5)} | ${f4(s.ranking.oracle.precisionAt5)} |`)
  lines.push(`| precision@5 (note-distinct) | ${f4(s.ranking.distinctPrecisionAt5)} | |`)
  lines.push(`| precision@5 (block) | ${f4(s.ranking.blockPrecisionAt5)} | |`)
  lines.push(`| recall@5 | ${f4(s.ranking.recallAt5)} | ${f4(Math.min(s.ranking.recallCeilingAt5, s.ranking.oracle.recallAt5))} |`)
  lines.push(`| MRR | ${f4(s.ranking.mrr)} | ${f4(s.ranking.oracle.mrr)} |`)
  lines.push(`| nDCG@10 | ${f4(s.ranking.ndcgAt10)} | |`)
  lines.push(`| CCH_r | ${f4(s.verdicts.cch)} | |`, "")
  lines.push(...sliceTable(main, "question file", (o) => o.file))
  lines.push(...sliceTable(main, "difficulty", (o) => o.question.difficulty))
  lines.push(...sliceTable(main, "declared intent", (o) => o.question.intent))
  lines.push(...sliceTable(main, "answer type", (o) => o.question.answerType ?? "unstated"))
  lines.push("## Answer coverage", "", `All \`mustContain\` strings returned: ${f4(s.ranking.coverageAll)}; any: ${f4(s.ranking.coverageAny)}.`, "")
  lines.push("## CCH_r verdicts", "", "| verdict | count |", "| --- | --- |")
  for (const [verdict, count] of Object.entries(s.verdicts.counts)) lines.push(`| ${verdict} | ${count} |`)
  lines.push(`| judged / unjudged | ${s.verdicts.judged} / ${s.verdicts.unjudged} |`, "")
  lines.push("## Negative questions", "", `${s.negatives.count} questions: empty-recall (a knowledge gap stated) ${f4(s.negatives.emptyRecall)}, false-confidence (claims and no knowledge gap) ${f4(s.negatives.falseConfidence)}.`, "")
  lines.push("## Decoy traps", "", `${s.traps.fired} of ${s.traps.fireable} fireable decoys came back (${f4(s.traps.rate)}); ${s.traps.unfireable.length} decoys can never fire.`, "")
  lines.push("## Conflicts", "", `Recall ${f4(s.conflicts.recall)} over ${s.conflicts.expected} questions expecting one; precision ${f4(s.conflicts.precision)} over ${s.conflicts.reported} reported.`, "")
  lines.push("## Staleness", "", `${s.staleness.stale} of ${s.staleness.claims} claims returned to positive questions come from a note a newer one contradicts or retired (${f4(s.staleness.rate)}).`, "")
  lines.push("## Tokens", "", `Counter: ${main.tokenCounter}. median ${f1(s.tokens.median)} (mean of the two middle values), p50 ${s.tokens.p50} (nearest rank), p95 ${s.tokens.p95}, max ${s.tokens.max}, violations ${s.tokens.violations}.`, "")
  lines.push("## Latency (ms)", "", `Total p50 ${f1(s.latency.total.p50)}, p95 ${f1(s.latency.total.p95)}, max ${f1(s.latency.total.max)}.`, "", "| stage | p50 | p95 |", "| --- | --- | --- |")
  for (const [stage, t] of Object.entries(s.latency.stages)) lines.push(`| ${stage} | ${t.p50.toFixed(2)} | ${t.p95.toFixed(2)} |`)
  lines.push("")
  if (bench.conditions.length > 1) {
    lines.push("## Conditions", "", "| condition | counter | hit@5 | precision@5 | MRR | nDCG@10 | CCH_r | median tokens |", "| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (const c of bench.conditions) {
      const r = c.summary
      lines.push(`| ${c.condition} | ${c.tokenCounter} | ${f4(r.ranking.hitAt5)} | ${f4(r.ranking.precisionAt5)} | ${f4(r.ranking.mrr)} | ${f4(r.ranking.ndcgAt10)} | ${f4(r.verdicts.cch)} | ${f1(r.tokens.median)} |`)
    }
    lines.push("", "Deltas against the first condition, paired bootstrap 95% interval:", "", "| condition | metric | delta | 95% interval | gained | lost |", "| --- | --- | --- | --- | --- | --- |")
    for (const d of bench.deltas) {
      for (const [metric, delta] of Object.entries(d.metrics)) {
        lines.push(`| ${d.condition} | ${metric} | ${delta.delta.toFixed(4)} | [${delta.low.toFixed(4)}, ${delta.high.toFixed(4)}] | ${delta.gained.length} | ${delta.lost.length} |`)
      }
    }
    lines.push("")
  }
  if (bench.baselines.length > 0 || bench.skippedBaselines.length > 0) {
    lines.push("## Baselines", "", "Same questions, same packer, same budget; baselines detect no gaps or conflicts.", "", "| ranker | hit@5 | precision@1 | precision@5 | MRR | nDCG@10 | CCH_r | median tokens |", "| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (const row of [{ name: `cairn (${main.condition})`, summary: main.summary }, ...bench.baselines]) {
      const r = row.summary
      lines.push(`| ${row.name} | ${f4(r.ranking.hitAt5)} | ${f4(r.ranking.precisionAt1)} | ${f4(r.ranking.precisionAt5)} | ${f4(r.ranking.mrr)} | ${f4(r.ranking.ndcgAt10)} | ${f4(r.verdicts.cch)} | ${f1(r.tokens.median)} |`)
    }
    lines.push("")
    if (bench.skippedBaselines.length > 0) lines.push(`Not run, their optional package not installed: ${skippedLine(bench.skippedBaselines, "`")}.`, "")
  }
  lines.push("## Failures", "", "Positive questions with nothing relevant in the top five. The columns multiply out to the score: `score = (rerank ?? rrf) × every factor`.", "")
  for (const o of main.observations.filter(isFailure)) {
    lines.push(`### ${o.question.id}: ${o.question.question.slice(0, 120)}`, "", `Expected: ${o.question.relevant.join(", ")}.`, "")
    const handed = new Set(o.candidateNotes)
    const missing = o.question.relevant.filter((r) => !handed.has(r))
    lines.push(missing.length === o.question.relevant.length
      ? `Never reached the packer at all: ${missing.join(", ")} (a retrieval failure).`
      : `Reached the packer, ranked too low (a ranking failure)${missing.length > 0 ? `; never reached: ${missing.join(", ")}` : ""}.`, "")
    const rows = (o.components ?? []) as ReadonlyArray<Record<string, unknown>>
    if (rows.length > 0) {
      lines.push(`| # | note | score | ${componentColumns.join(" | ")} |`, `| --- | --- | --- | ${componentColumns.map(() => "---").join(" | ")} |`)
      rows.slice(0, 6).forEach((row, i) => {
        const cells = componentColumns.map((c) => (row[c] === null ? "—" : Number(row[c]).toPrecision(4)))
        lines.push(`| ${i + 1} | ${String(row["note"])} | ${Number(row["score"]).toPrecision(4)} | ${cells.join(" | ")} |`)
      })
      lines.push("")
    }
  }
  return lines.join("\n")
}
