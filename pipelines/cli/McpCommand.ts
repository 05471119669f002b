/**
 * `cairn mcp [--root DIR] [--http PORT] [--host 127.0.0.1] [--poll]`: a long-lived MCP server with
 * the ask, search, lookup and status tools over one warm index, refreshed in the background as
 * files change. stdio by default; `--http` serves the streamable HTTP transport at `/mcp`.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  root: Flag.String("root").pipe(Flag.withDescription("Repository to serve (one per process)"), Flag.withDefault(".")),
  store: Flag.String("store").pipe(
    Flag.withDescription("Where the index lives: a postgres:// URL for a shared server (default: CAIRN_STORE, else the file under .cairn/)"),
    Flag.optional
  ),
  http: Flag.Int("http").pipe(Flag.withDescription("Serve streamable HTTP on this port instead of stdio"), Flag.optional),
  host: Flag.String("host").pipe(Flag.withDescription("Interface to listen on with --http"), Flag.withDefault("127.0.0.1")),
  poll: Flag.Boolean("poll").pipe(Flag.withDescription("Poll for changes instead of watching (network file systems)"), Flag.withDefault(false)),
  waitMs: Flag.Int("wait-ms").pipe(Flag.withDescription("Longest a question waits for a refresh already due"), Flag.withDefault(1_000))
}

export type McpInput = Command.Command.Config.Infer<typeof flags>

export const mcp = Command.make("mcp", flags, lazily(() => import("./McpAction.ts"))).pipe(
  Command.withDescription("Serve ask, search, lookup and status as MCP tools over a warm index (stdio, or --http PORT)")
)
