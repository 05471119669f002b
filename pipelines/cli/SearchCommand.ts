/**
 * `cairn search "query" [--root DIR] [--kind KIND]... [--scope PATH]... [--limit N] [--offset N]
 * [--json] [--explain] [--no-refresh]`: a ranked list of files (or chunks, symbols with `--kind`),
 * each with its lines and the lines that match. `--json` prints what the MCP `search` tool returns.
 */
import { Argument, Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  query: Argument.String("query").pipe(Argument.withDescription("What to look for; omit it or pass - to read standard input"), Argument.optional),
  root: Flag.String("root").pipe(Flag.withDescription("Repository to search"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  kind: Flag.Literals("kind", ["module", "document", "chunk", "symbol"]).pipe(
    Flag.withDescription("Result kind (repeatable; default module and document, that is files)"),
    Flag.atLeast(0)
  ),
  scope: Flag.String("scope").pipe(Flag.withDescription("Only files under this path (repeatable)"), Flag.atLeast(0)),
  limit: Flag.Int("limit").pipe(Flag.withDescription("Results to print, 1 to 200"), Flag.withDefault(10)),
  offset: Flag.Int("offset").pipe(Flag.withDescription("Results to skip; offset + limit is at most 200"), Flag.withDefault(0)),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the JSON the MCP search tool returns"), Flag.withDefault(false)),
  explain: Flag.Boolean("explain").pipe(Flag.withDescription("Add each result's rank in every leg"), Flag.withDefault(false)),
  noRefresh: Flag.Boolean("no-refresh").pipe(Flag.withDescription("Search the index as it is, without refreshing it"), Flag.withDefault(false))
}

export type SearchInput = Command.Command.Config.Infer<typeof flags>

export const search = Command.make("search", flags, lazily(() => import("./SearchAction.ts"))).pipe(
  Command.withDescription("Rank the files (or chunks, symbols) that match a query, deep enough to page")
)
