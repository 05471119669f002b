/**
 * `cairn bench`: the bench runner on the command line. It lives with the runner in eval/ (which may
 * import the pipelines; the pipelines may not import it) and is added to the CLI by the bin entry.
 */
import { Console, Effect, Option, Schema } from "effect"
import { Command, Flag } from "effect/cli"
import { type Args, parseArgs, runEval } from "./main.ts"

export class BenchGateFailed extends Schema.TaggedError<BenchGateFailed>()("BenchGateFailed", {}) {
  override get message(): string {
    return "bench: the gate failed; see the report for the checks that did not pass"
  }
}

export const bench = Command.make(
  "bench",
  {
    gate: Flag.Boolean("gate").pipe(Flag.withDescription("Enforce the committed floors and checks; exit 1 on failure"), Flag.withDefault(false)),
    set: Flag.String("set").pipe(Flag.withDescription("Question set to run (repeatable); default every set found"), Flag.atLeast(0)),
    conditions: Flag.String("conditions").pipe(Flag.withDescription("Comma-separated conditions (default full)"), Flag.optional),
    ablations: Flag.Boolean("ablations").pipe(Flag.withDescription("Run every committed condition"), Flag.withDefault(false)),
    split: Flag.Literals("split", ["dev", "heldout"]).pipe(Flag.withDescription("Which split to run"), Flag.withDefault("dev" as const)),
    final: Flag.Boolean("final").pipe(Flag.withDescription("Required to spend the heldout split"), Flag.withDefault(false)),
    output: Flag.String("output").pipe(Flag.withDescription("Directory for results.json and report.md per set"), Flag.optional),
    corpora: Flag.String("corpora").pipe(Flag.withDescription("Where the shared corpora live (default $CAIRN_CORPORA or ../shared/corpora)"), Flag.optional),
    config: Flag.String("config").pipe(Flag.withDescription("JSON RetrievalConfig overrides for one run (the gate then fails)"), Flag.optional)
  },
  Effect.fn("cli.bench")(function*(flags) {
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
).pipe(Command.withDescription("Measure recall on the question sets, with baselines, conditions and the gate"))
