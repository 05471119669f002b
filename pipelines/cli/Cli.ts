/**
 * The `cairn` command line: the root command and its subcommands. Each subcommand lives in its own
 * file beside this one; `main.ts` runs the result against the process.
 */
import { Command } from "effect/cli"
import { ask } from "./AskCommand.ts"
import { graph } from "./GraphCommand.ts"
import { index } from "./IndexCommand.ts"
import { lookup } from "./LookupCommand.ts"
import { mcp } from "./McpCommand.ts"
import { search } from "./SearchCommand.ts"
import { snapshot } from "./SnapshotCommand.ts"
import { status } from "./StatusCommand.ts"
import { VERSION } from "./Version.ts"

export { VERSION } from "./Version.ts"

/** The root command with the pipelines' subcommands and any the caller adds (`cairn bench`). */
export const makeCairn = <E = never, R = never>(extra: ReadonlyArray<Command.Command<any, any, any, E, R>> = []) =>
  Command.make("cairn").pipe(
    Command.withDescription("Right-sized, attributed context from a repository for AI agents"),
    Command.withSubcommands([index, ask, search, lookup, status, mcp, snapshot, graph, ...extra])
  )

export const cairn = makeCairn()

/** Runs the CLI against explicit argv (tests); `Command.run` reads the process arguments instead. */
export const runWith = Command.runWith(cairn, { version: VERSION })
