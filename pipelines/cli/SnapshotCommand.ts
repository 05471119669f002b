/**
 * `cairn snapshot --root DIR [--previous FILE] [--out FILE] [--json]`: scans a repository and writes
 * its knowledge snapshot (by default to `<root>/.cairn/snapshot.json`), or prints it with `--json`.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  root: Flag.String("root").pipe(Flag.withDescription("Repository directory to scan"), Flag.withDefault(".")),
  previous: Flag.String("previous").pipe(
    Flag.withDescription("An earlier snapshot to reuse where it cannot change the answer"),
    Flag.optional
  ),
  out: Flag.String("out").pipe(
    Flag.withDescription("Where to write the snapshot (default <root>/.cairn/snapshot.json)"),
    Flag.optional
  ),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the snapshot on stdout instead"), Flag.withDefault(false))
}

export type SnapshotInput = Command.Command.Config.Infer<typeof flags>

export const snapshot = Command.make("snapshot", flags, lazily(() => import("./SnapshotAction.ts"))).pipe(
  Command.withDescription("Scan a repository into a deterministic knowledge snapshot")
)
