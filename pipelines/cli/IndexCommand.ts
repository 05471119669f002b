/**
 * `cairn index [--root DIR] [--rebuild]`: builds or refreshes the embedded index under
 * `<root>/.cairn/`, re-chunking only notes whose bytes moved. Progress goes to standard error
 * (redrawn in place on a terminal, a line per phase otherwise); the summary to standard output.
 */
import { Clock, Console, Duration, Effect, Stdio, Stream } from "effect"
import { Command, Flag } from "effect/cli"
import { type IndexProgress, type IndexReport, indexLayer, indexRepository } from "../indexRepository.ts"

const write = (text: string) =>
  Effect.gen(function*() {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(Stream.make(text), stdio.stderr({ endOnDone: false })).pipe(Effect.ignore)
  })

const describe = (event: IndexProgress): string => {
  switch (event._tag) {
    case "Discovered":
      return `cairn: ${event.files} files to index`
    case "Chunked":
      return `cairn: chunked ${event.done}/${event.total} changed files`
    case "Embedding":
      return `cairn: embedding ${event.chunks} chunks`
    case "Written":
      return "cairn: written"
  }
}

/** Index `root`, reporting progress on standard error; returns the report. */
export const runIndex = (root: string, rebuild: boolean) =>
  Effect.gen(function*() {
    const stdio = yield* Stdio.Stdio
    const terminal = yield* stdio.stderrIsTerminal
    const events: Array<IndexProgress> = []
    // The one clock read of an index run: the build time stamped on the manifest.
    const now = yield* Clock.currentTimeMillis
    const report: IndexReport = yield* indexRepository({ root, now, rebuild, onProgress: (event) => events.push(event) }).pipe(
      Effect.provide(indexLayer(root))
    )
    const lines = events.map(describe)
    if (lines.length > 0) yield* write(terminal ? `\r${lines.at(-1)}\u001b[K\n` : `${lines.join("\n")}\n`)
    return report
  })

export const summarise = (report: IndexReport, seconds: number): string =>
  report.upToDate
    ? `index up to date (checked in ${seconds.toFixed(1)} s): ${report.notes} files unchanged since the last build; ` +
      `${report.summary.chunkCount} chunks; ${report.summary.relationCount} relations`
    : `indexed ${report.notes} files in ${seconds.toFixed(1)} s: ${report.notesIndexed} re-chunked, ${report.notesUnchanged} unchanged, ` +
      `${report.notesDeleted} deleted; ${report.summary.chunkCount} chunks (${report.chunksEmbedded} embedded, ${report.vectorsReused} vectors reused)` +
      `${report.retrained ? ", embedder retrained" : ""}; ${report.summary.relationCount} relations` +
      `${report.snapshotPatched ? "; the last snapshot patched where files moved, not scanned again" : ""}`

export const index = Command.make(
  "index",
  {
    root: Flag.String("root").pipe(Flag.withDescription("Repository to index"), Flag.withDefault(".")),
    rebuild: Flag.Boolean("rebuild").pipe(Flag.withDescription("Rebuild from scratch and retrain the embedder"), Flag.withDefault(false))
  },
  Effect.fn("cli.index")(function*({ rebuild, root }) {
    const [duration, report] = yield* Effect.timed(runIndex(root, rebuild))
    yield* Console.log(summarise(report, Duration.toMillis(duration) / 1000))
  })
).pipe(Command.withDescription("Build or refresh the embedded index of a repository (only what changed)"))
