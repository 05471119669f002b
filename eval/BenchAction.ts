/** What `cairn bench` does (its flags are declared in BenchCommand.ts, so this module loads only when it runs). */
import { Console, Effect, Option, Schema } from "effect"
import type { BenchInput } from "./BenchCommand.ts"
import { type Args, parseArgs, runEval } from "./main.ts"

export class BenchGateFailed extends Schema.TaggedError<BenchGateFailed>()("BenchGateFailed", {}) {
  override get message(): string {
    return "bench: the gate failed; see the report for the checks that did not pass"
  }
}

export const run = Effect.fn("cli.bench")(function*(flags: BenchInput) {
  const argv: Array<string> = []
  if (flags.gate) argv.push("--gate")
  for (const set of flags.set) argv.push("--set", set)
  if (Option.isSome(flags.conditions)) argv.push("--conditions", flags.conditions.value)
  if (flags.ablations) argv.push("--ablations")
  argv.push("--split", flags.split)
  if (flags.final) argv.push("--final")
  if (Option.isSome(flags.output)) argv.push("--output", flags.output.value)
  if (Option.isSome(flags.corpora)) argv.push("--corpora", flags.corpora.value)
  if (Option.isSome(flags.config)) argv.push("--config", flags.config.value)
  const args: Args = parseArgs(argv)
  const failed = yield* runEval(args)
  if (!args.gate) yield* Console.log("Not gated: reported only. Run with --gate to enforce the floors.")
  if (args.gate && failed) return yield* new BenchGateFailed()
})
