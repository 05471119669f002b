/**
 * `cairn mcp`: the tools served over stdio (one client, the process that started it) or the
 * streamable HTTP transport (on loopback unless a host is named), from one warm index that a file
 * watcher keeps current. Logs go to standard error: over stdio, standard output is the protocol.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeStdio from "@effect/platform-node/NodeStdio"
import { Deferred, Duration, Effect, Layer, Logger } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { HttpRouter } from "effect/http"
import type * as RepositoryConfig from "../repositoryConfig.ts"
import { CairnToolkit, handlers } from "./Tools.ts"
import * as WarmIndex from "./WarmIndex.ts"
import { watchRoot } from "./Watcher.ts"

export interface McpOptions {
  readonly root: string
  readonly config: RepositoryConfig.RepositoryConfig
  readonly version: string
  /** Serve streamable HTTP on this port instead of stdio. */
  readonly http?: { readonly port: number; readonly host: string } | undefined
  readonly refreshWaitMs: number
  readonly debounceMs: number
  readonly watch: "auto" | "poll"
  readonly pollMs: number
  /** Over stdio: completed when the client has closed our input and every question is answered. */
  readonly clientGone?: Deferred.Deferred<void> | undefined
}

// Input closed: the client sent all it will. What it asked is answered before the server ends.
const drainThen = Effect.fn("Server.drainThen")(function*(done: Deferred.Deferred<void>) {
  yield* Effect.callback<void>((resume) => {
    process.stdin.once("end", () => resume(Effect.void))
    process.stdin.once("close", () => resume(Effect.void))
  })
  const warm = yield* WarmIndex.WarmIndex
  let quiet = 0
  for (let waited = 0; quiet < 3 && waited < 60_000; waited += 50) {
    yield* Effect.sleep(Duration.millis(50))
    quiet = (yield* warm.active) === 0 ? quiet + 1 : 0
  }
  yield* Deferred.succeed(done, undefined)
})

// The revisions the official clients speak, newest first.
const PROTOCOLS = [McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05] as const

const INSTRUCTIONS = "cairn answers from an index of this repository's code and Markdown. search finds files, lookup describes one, " +
  "ask answers a question with cited passages inside a token budget; every answer says how stale the index is."

export const layer = (options: McpOptions) => {
  const registrations = McpServer.toolkit(CairnToolkit).pipe(Layer.provide(handlers(options.root, options.config.shadow?.retrieval)))
  const server = options.http === undefined
    ? McpServer.layerStdio({ name: "cairn", version: options.version, instructions: INSTRUCTIONS, protocols: PROTOCOLS, registrations }).pipe(
      Layer.provide(NodeStdio.layer)
    )
    : HttpRouter.serve(
      McpServer.layerHttp({ name: "cairn", version: options.version, instructions: INSTRUCTIONS, protocols: PROTOCOLS, path: "/mcp", registrations })
    ).pipe(Layer.provide(NodeHttpServer.layer(createServer, { port: options.http.port, host: options.http.host })))
  const watcher = Layer.effectDiscard(Effect.forkScoped(watchRoot({ root: options.root, config: options.config, mode: options.watch, pollMs: options.pollMs })))
  const gone = options.clientGone === undefined ? Layer.empty : Layer.effectDiscard(Effect.forkScoped(drainThen(options.clientGone)))
  return Layer.mergeAll(server, watcher, gone).pipe(
    Layer.provide(WarmIndex.layer({ root: options.root, config: options.config, refreshWaitMs: options.refreshWaitMs, debounceMs: options.debounceMs })),
    Layer.provide(Logger.layer([Logger.withConsoleError(Logger.formatSimple)]))
  )
}
