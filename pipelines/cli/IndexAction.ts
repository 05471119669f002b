/** What `cairn index` does (its flags are declared in IndexCommand.ts, so this module loads only when it runs). */
import type { IndexInput } from "./IndexCommand.ts"
import { Cause, Clock, Console, Duration, Effect, Fiber, Queue, Stdio, Stream } from "effect"
import type { IndexReport } from "../indexRepository.ts"
import { indexOrRepair } from "../repairIndex.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { indexProgressView } from "./IndexProgressView.ts"
import { withStore } from "../indexLocation.ts"
import { configuredModels } from "../configuredModels.ts"

/**
 * Index `root`, reporting progress on standard error as the run goes (`indexProgressView`);
 * returns the report. The run hears progress in plain callbacks, so the lines pass through a queue
 * to a fiber that writes them while the run works.
 */
export const runIndex = Effect.fn("IndexAction.runIndex")(function*(root: string, rebuild: boolean, settings?: RepositoryConfig.RepositoryConfig) {
    const config = settings ?? (yield* RepositoryConfig.read(root))
    const { embedder } = yield* configuredModels(config)
    const stdio = yield* Stdio.Stdio
    const view = indexProgressView(yield* stdio.stderrIsTerminal)
    const lines = yield* Queue.unbounded<string, Cause.Done>()
    const writer = yield* Effect.forkChild(Stream.run(Stream.fromQueue(lines), stdio.stderr({ endOnDone: false })).pipe(Effect.ignore))
    const show = (text: string | undefined): void => {
      if (text !== undefined) Queue.offerUnsafe(lines, text)
    }
    // The one clock read of an index run: the build time stamped on the manifest.
    const now = yield* Clock.currentTimeMillis
    return yield* indexOrRepair({
      root,
      now,
      rebuild,
      chunking: config.chunking,
      ...(config.discovery === undefined ? {} : { discovery: config.discovery }),
      ...(embedder === undefined ? {} : { embedder }),
      onProgress: (event) => show(view.next(event))
    }, (file, damage) => show(`cairn: the index ${file} is damaged (${damage}); building a new one from the repository to replace it\n`)).pipe(
      Effect.ensuring(Effect.suspend(() => {
        show(view.finish())
        return Effect.andThen(Queue.end(lines), Fiber.join(writer))
      }))
    )
  })

export const summarise = (report: IndexReport, seconds: number): string =>
  report.upToDate
    ? `index up to date (checked in ${seconds.toFixed(1)} s): ${report.notes} files unchanged since the last build; ` +
      `${report.summary.chunkCount} chunks; ${report.summary.relationCount} relations`
    : `indexed ${report.notes} files in ${seconds.toFixed(1)} s: ${report.notesIndexed} re-chunked, ${report.notesUnchanged} unchanged, ` +
      `${report.notesDeleted} deleted; ${report.summary.chunkCount} chunks (${report.chunksEmbedded} embedded, ${report.vectorsReused} vectors reused)` +
      `${!report.retrained ? "" : report.model === undefined ? ", embedder retrained" : `, every vector from ${report.model}`}; ${report.summary.relationCount} relations` +
      `${report.snapshotPatched ? "; the last snapshot patched where files moved, not scanned again" : ""}` +
      `${report.replacedDamaged === undefined ? "" : "; replaced the damaged index with this build"}`

const runHere = Effect.fn("cli.index")(function*({ rebuild, root }: IndexInput) {
  const [duration, report] = yield* Effect.timed(runIndex(root, rebuild))
  yield* Console.log(summarise(report, Duration.toMillis(duration) / 1000))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: IndexInput) => withStore(input.store)(runHere(input))
