/**
 * `cairn status [--root DIR] [--json]`: the index's health and what is stale — counts, the last
 * build, embedding coverage, and the files on disk that changed since (by content hash).
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  root: Flag.String("root").pipe(Flag.withDescription("Repository whose index to inspect"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the status as JSON"), Flag.withDefault(false))
}

export type StatusInput = Command.Command.Config.Infer<typeof flags>

export const status = Command.make("status", flags, lazily(() => import("./StatusAction.ts"))).pipe(
  Command.withDescription("Show the index's health, counts, last build and what is stale")
)
