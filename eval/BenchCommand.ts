/**
 * `cairn bench`: the bench runner on the command line. It lives with the runner in eval/ (which may
 * import the pipelines; the pipelines may not import it) and is added to the CLI by bin/cairn.ts.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "../pipelines/cli/Lazy.ts"

const flags = {
  gate: Flag.Boolean("gate").pipe(Flag.withDescription("Enforce the committed floors and checks; exit 1 on failure"), Flag.withDefault(false)),
  set: Flag.String("set").pipe(Flag.withDescription("Question set to run (repeatable); default every set found"), Flag.atLeast(0)),
  conditions: Flag.String("conditions").pipe(Flag.withDescription("Comma-separated conditions (default full)"), Flag.optional),
  ablations: Flag.Boolean("ablations").pipe(Flag.withDescription("Run every committed condition"), Flag.withDefault(false)),
  split: Flag.Literals("split", ["dev", "heldout"]).pipe(Flag.withDescription("Which split to run"), Flag.withDefault("dev" as const)),
  final: Flag.Boolean("final").pipe(Flag.withDescription("Required to spend the heldout split"), Flag.withDefault(false)),
  output: Flag.String("output").pipe(Flag.withDescription("Directory for results.json and report.md per set"), Flag.optional),
  corpora: Flag.String("corpora").pipe(Flag.withDescription("Where the shared corpora live (default $CAIRN_CORPORA or ../shared/corpora)"), Flag.optional),
  config: Flag.String("config").pipe(Flag.withDescription("JSON RetrievalConfig overrides for one run (the gate then fails)"), Flag.optional)
}

export type BenchInput = Command.Command.Config.Infer<typeof flags>

export const bench = Command.make("bench", flags, lazily(() => import("./BenchAction.ts"))).pipe(
  Command.withDescription("Measure recall on the question sets, with baselines, conditions and the gate")
)
