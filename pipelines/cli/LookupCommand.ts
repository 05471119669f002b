/**
 * `cairn lookup (--id ID | --path PATH | --symbol NAME | --ref REF) [--root DIR] [--depth N]
 * [--budget N] [--json] [--no-refresh]`: one entity with its neighbours, the documents about it and
 * evidence. `--json` prints what the MCP `lookup` tool returns.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  id: Flag.String("id").pipe(Flag.withDescription("An entity id (module:src/a.ts, document:docs/x.md, area:src)"), Flag.optional),
  path: Flag.String("path").pipe(Flag.withDescription("A repository-relative file or directory"), Flag.optional),
  symbol: Flag.String("symbol").pipe(Flag.withDescription("An exported or declared name"), Flag.optional),
  ref: Flag.String("ref").pipe(Flag.withDescription("A claim ref or chunk id from ask or search"), Flag.optional),
  root: Flag.String("root").pipe(Flag.withDescription("Repository to look in"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  depth: Flag.Int("depth").pipe(Flag.withDescription("Hops of neighbours, 0 to 3"), Flag.withDefault(1)),
  budget: Flag.Int("budget").pipe(Flag.withDescription("Trim the response to this many tokens (0 to 32000)"), Flag.optional),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the JSON the MCP lookup tool returns"), Flag.withDefault(false)),
  noRefresh: Flag.Boolean("no-refresh").pipe(Flag.withDescription("Read the index as it is, without refreshing it"), Flag.withDefault(false))
}

export type LookupInput = Command.Command.Config.Infer<typeof flags>

export const lookup = Command.make("lookup", flags, lazily(() => import("./LookupAction.ts"))).pipe(
  Command.withDescription("Show one file, directory or symbol with its neighbours and the documents about it")
)
