/**
 * `cairn ask "question" [--root DIR] [--budget N] [--json|--text] [--explain] [--no-refresh]
 * [--scope PATH]...`: refreshes the index (only what changed), then answers with a ContextPack.
 * `--json` prints the wire format exactly; `--text` (the default on a terminal) prints it for people.
 * With no question argument, or `-`, the question is read from standard input, so agents can pipe.
 */
import { Argument, Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  question: Argument.String("question").pipe(Argument.withDescription("The question; omit it or pass - to read standard input"), Argument.optional),
  root: Flag.String("root").pipe(Flag.withDescription("Repository to answer from"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  budget: Flag.Int("budget").pipe(Flag.withDescription("Token budget for the pack (0 to 32000)"), Flag.withDefault(4_000)),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the ContextPack wire JSON"), Flag.withDefault(false)),
  text: Flag.Boolean("text").pipe(Flag.withDescription("Print the pack for people (the default)"), Flag.withDefault(false)),
  explain: Flag.Boolean("explain").pipe(Flag.withDescription("Add score components and stage timings"), Flag.withDefault(false)),
  noRefresh: Flag.Boolean("no-refresh").pipe(Flag.withDescription("Answer from the index as it is, without refreshing it"), Flag.withDefault(false)),
  scope: Flag.String("scope").pipe(Flag.withDescription("Only files under this path (repeatable)"), Flag.atLeast(0))
}

export type AskInput = Command.Command.Config.Infer<typeof flags>

export const ask = Command.make("ask", flags, lazily(() => import("./AskAction.ts"))).pipe(
  Command.withDescription("Answer a question from a repository with a ContextPack (refreshes the index first)")
)
