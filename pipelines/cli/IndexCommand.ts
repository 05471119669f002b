/**
 * `cairn index [--root DIR] [--rebuild]`: builds or refreshes the embedded index under
 * `<root>/.cairn/`, re-chunking only notes whose bytes moved. Progress goes to standard error as
 * the run goes (`IndexProgressView`); the summary to standard output.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  root: Flag.String("root").pipe(Flag.withDescription("Repository to index"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  rebuild: Flag.Boolean("rebuild").pipe(Flag.withDescription("Rebuild from scratch and retrain the embedder"), Flag.withDefault(false))
}

export type IndexInput = Command.Command.Config.Infer<typeof flags>

export const index = Command.make("index", flags, lazily(() => import("./IndexAction.ts"))).pipe(
  Command.withDescription("Build or refresh the embedded index of a repository (only what changed)")
)
