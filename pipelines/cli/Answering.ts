/**
 * How the one-shot commands that answer (`ask`, `search`, `lookup`) reach the index: refresh it
 * first (only what changed), or, with `--no-refresh`, open it for reading alone; the answer then
 * counts the files it has not seen, so it says how stale it is.
 */
import { Console, Effect, Layer, Option, Schema, Stdio, Stream } from "effect"
import { recallLayer } from "../indexLocation.ts"
import { reportingChanges } from "../staleness.ts"
import { configuredModels, recallModels } from "../configuredModels.ts"
import type * as RepositoryConfig from "../repositoryConfig.ts"

export class NoQuestion extends Schema.TaggedError<NoQuestion>()("NoQuestion", {}) {
  override get message(): string {
    return "no question: pass one as an argument, or pipe it on standard input"
  }
}

const readStdin = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  // Waiting on a terminal for input nobody knows to type would look like a hang.
  if (yield* stdio.stdinIsTerminal) return yield* new NoQuestion()
  const chunks = yield* Stream.runCollect(stdio.stdin)
  return new TextDecoder().decode(Buffer.concat(chunks.map((c) => Buffer.from(c)))).trim()
})

/** The argument, or standard input when it is absent or `-`, so agents can pipe. */
export const questionFrom = (argument: Option.Option<string>) =>
  Option.isSome(argument) && argument.value !== "-" ? Effect.succeed(argument.value) : readStdin


export const answering = Effect.fn("Answering.answering")(function*(root: string, noRefresh: boolean, config: RepositoryConfig.RepositoryConfig) {
    const models = yield* configuredModels(config)
    // The index pipeline is loaded only to refresh: an answer from the index as it is needs none of it.
    const refreshed = noRefresh ? false : yield* Effect.flatMap(Effect.promise(() => import("./IndexAction.ts")), ({ runIndex }) => runIndex(root, false, config)).pipe(
      Effect.as(true),
      // Another process writing (holding the lock, committing a rebuild under this refresh) fails the
      // write and leaves the committed index as it was: answer from that, as --no-refresh does.
      // So does a model endpoint that cannot embed what changed: the refresh writes nothing.
      Effect.catchTag(["IndexWriteError", "EmbedderError"], (error) =>
        Effect.as(Console.error(`cairn: could not refresh the index (${error.message}); answering from the last committed build`), false))
    )
    const index = recallLayer({
      root,
      ...(refreshed ? {} : { readOnly: true }),
      ...(config.retrieval === undefined ? {} : { config: config.retrieval }),
      ...recallModels(models)
    })
    // Refreshed, nothing has changed since. Answering from the index as it is, the answer counts the
    // files it has not seen through the index it reads (staleness.ts `checkedReading`), on the
    // connection it already holds.
    return refreshed ? reportingChanges(0).pipe(Layer.provideMerge(index)) : index
  })
