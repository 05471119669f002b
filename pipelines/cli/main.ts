/**
 * The process entry point: the only caller of `NodeRuntime.runMain`. Extra subcommands come from
 * outside the pipelines (the bench runner lives in eval/, which the pipelines may not import); the
 * bin entry passes them in.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { Command } from "effect/cli"
import { makeCairn, VERSION } from "./Cli.ts"

export const runCli = <E>(extra: ReadonlyArray<Command.Command<string, any, any, E, NodeServices.NodeServices>> = []): void =>
  makeCairn(extra).pipe(
    Command.run({ version: VERSION }),
    Effect.provide(NodeServices.layer),
    NodeRuntime.runMain
  )
