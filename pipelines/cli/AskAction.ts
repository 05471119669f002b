/** What `cairn ask` does (its flags are declared in AskCommand.ts, so this module loads only when it runs). */
import type { AskInput } from "./AskCommand.ts"
import { Console, Effect, Layer, Option, Schema, Stdio, Stream } from "effect"
import * as ContextPack from "../../src/domain/ContextPack.ts"
import { FACTORS, type ScoreComponents } from "../../src/domain/ScoreComponents.ts"
import * as Embedded from "../../layers/Embedded.ts"
import { recall } from "../recall.ts"
import { countChanges, reportingChanges } from "../staleness.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { runIndex } from "./IndexAction.ts"

export class NoQuestion extends Schema.TaggedError<NoQuestion>()("NoQuestion", {}) {
  override get message(): string {
    return "no question: pass one as an argument, or pipe it on standard input"
  }
}

const readStdin = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  // Waiting on a terminal for input nobody knows to type would look like a hang.
  if (yield* stdio.stdinIsTerminal) return yield* new NoQuestion()
  const chunks = yield* Stream.runCollect(stdio.stdin)
  return new TextDecoder().decode(Buffer.concat(chunks.map((c) => Buffer.from(c)))).trim()
})

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
  const text = Option.isSome(question) && question.value !== "-" ? question.value : yield* readStdin
  if (!noRefresh) yield* runIndex(root, false, config)
  // Answering from the index as it is: say how many files it has not seen.
  const filesChanged = noRefresh ? yield* countChanges(root, config.discovery) : 0
  const pack = yield* recall({
    text,
    budgetTokens: budget,
    explain,
    ...(scope.length > 0 ? { filters: { paths: scope } } : {})
  }).pipe(Effect.provide(reportingChanges(filesChanged).pipe(
    Layer.provideMerge(Embedded.embedded({
      root,
      ...(noRefresh ? { readOnly: true } : {}),
      ...(config.retrieval === undefined ? {} : { config: config.retrieval })
    }))
  )))
  yield* Console.log(json ? ContextPack.serialise(pack) : renderText(pack))
})
