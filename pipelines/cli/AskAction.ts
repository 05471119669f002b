/** What `cairn ask` does (its flags are declared in AskCommand.ts, so this module loads only when it runs). */
import type { AskInput } from "./AskCommand.ts"
import { Console, Effect } from "effect"
import * as ContextPack from "../../src/domain/ContextPack.ts"
import { FACTORS, type ScoreComponents } from "../../src/domain/ScoreComponents.ts"
import { recall } from "../recall.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { answering, questionFrom } from "./Answering.ts"

const significant = (x: number): number => Number(x.toPrecision(4))

/** The wire name of a component, as `--json` spells it. */
const wireName = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/** `--explain`'s account of a claim's score: its base, then every factor that moved it. */
const scoreLine = (components: ScoreComponents): string => {
  const base = components.rerank === null ? `rrf ${significant(components.rrf)}` : `rerank ${significant(components.rerank)}`
  const moved = FACTORS.filter((factor) => components[factor] !== 1).map((factor) => `${wireName(factor)} ${significant(components[factor])}`)
  return `   score = ${[base, ...moved].join(" × ")}${moved.length < FACTORS.length ? " (other factors 1)" : ""}`
}

const claimLine = (claim: ContextPack.Claim, i: number): string => {
  const body = claim.text.split("\n").slice(1).join("\n").trim()
  const flags = [claim.kind, claim.status !== "current" ? claim.status : undefined, claim.truncated === true ? "truncated" : undefined]
    .filter((f) => f !== undefined).join(", ")
  const explained = claim.components === undefined ? "" : `\n${scoreLine(claim.components)}`
  return `${i + 1}. ${claim.ref}  (score ${claim.score}, ${flags})${explained}\n${body.split("\n").map((line) => `   ${line}`).join("\n")}`
}

/** The pack for people: claims with refs, conflicts, gaps and the budget. */
export const renderText = (pack: ContextPack.ContextPack): string => {
  const lines: Array<string> = []
  pack.claims.forEach((claim, i) => lines.push(claimLine(claim, i), ""))
  for (const conflict of pack.conflicts) lines.push(`conflict: ${conflict.topic}: ${conflict.note}\n   ${conflict.refs.join("\n   ")}`, "")
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

export const run = Effect.fn("cli.ask")(function*({ budget, explain, json, noRefresh, question, root, scope }: AskInput) {
  // The settings first: a bad file is reported before anything waits on standard input.
  const config = yield* RepositoryConfig.read(root)
  const text = yield* questionFrom(question)
  const index = yield* answering(root, noRefresh, config)
  const pack = yield* recall({
    text,
    budgetTokens: budget,
    explain,
    ...(scope.length > 0 ? { filters: { paths: scope } } : {})
  }).pipe(Effect.provide(index))
  yield* Console.log(json ? ContextPack.serialise(pack) : renderText(pack))
})
