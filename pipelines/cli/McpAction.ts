/** What `cairn mcp` does (its flags are declared in McpCommand.ts, so this module loads only when it runs). */
import type { McpInput } from "./McpCommand.ts"
import { Deferred, Effect, Layer, Option } from "effect"
import * as Server from "../mcp/Server.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { VERSION } from "./Version.ts"
import { withStore } from "../indexLocation.ts"
import { configuredModels } from "../configuredModels.ts"

const runHere = Effect.fn("cli.mcp")(function*({ host, http, poll, root, waitMs }: McpInput) {
  const config = yield* RepositoryConfig.read(root)
  // The models' keys are checked now, before a client is told the server is up.
  yield* configuredModels(config)
  if (Option.isSome(http)) process.stderr.write(`cairn mcp: serving ${root} at http://${host}:${http.value}/mcp\n`)
  // Over stdio the client owns the process: when it has closed our input and been answered, the
  // session is over (the index's files are brought up to date on the way out).
  const clientGone = Option.isSome(http) ? undefined : yield* Deferred.make<void>()
  const served = Layer.launch(Server.layer({
    root,
    config,
    version: VERSION,
    http: Option.isSome(http) ? { port: http.value, host } : undefined,
    refreshWaitMs: Math.max(0, waitMs),
    debounceMs: 100,
    watch: poll ? "poll" : "auto",
    pollMs: 2_000,
    clientGone
  }))
  yield* clientGone === undefined ? served : Effect.raceFirst(served, Deferred.await(clientGone))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: McpInput) => withStore(input.store)(runHere(input))
