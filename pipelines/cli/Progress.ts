/**
 * Progress of a long scan on standard error: a line redrawn in place on a terminal, one line per
 * phase otherwise. Short scans stay silent so piped output and tests see only the result.
 */
import { Effect, Stdio, Stream } from "effect"
import type { Progress } from "../../src/discovery/Progress.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import type { DiscoverOptions } from "../discover.ts"

/** Scans with fewer files to analyse than this finish before a progress line would help. */
export const LONG_SCAN_FILES = 1000

/** Redraw a terminal line at most once per this many files. */
const REDRAW_EVERY = 200

const write = Effect.fn("Progress.write")(function*(text: string): Effect.fn.Return<void, never, Stdio.Stdio> {
  const stdio = yield* Stdio.Stdio
  yield* Stream.run(Stream.make(text), stdio.stderr({ endOnDone: false })).pipe(Effect.ignore)
})

const render = (progress: Progress): string => {
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100)
  return `cairn: ${progress.phase} ${progress.done}/${progress.total} files (${percent}%), parsed ${progress.parsed}, reused ${progress.reused}`
}

/** A reporter to hand to the scan; call `finish` once it ends. */
export const makeReporter = Effect.gen(function*() {
  const stdio = yield* Stdio.Stdio
  const terminal = yield* stdio.stderrIsTerminal
  let phase = ""
  let drawnAt = -REDRAW_EVERY
  let drawn = false
  const report = (progress: Progress): Effect.Effect<void, never, Stdio.Stdio> => {
    if (progress.total < LONG_SCAN_FILES) return Effect.void
    const phaseChanged = progress.phase !== phase
    phase = progress.phase
    if (terminal && (phaseChanged || progress.done - drawnAt >= REDRAW_EVERY)) {
      drawnAt = progress.done
      drawn = true
      return write(`\r${render(progress)}\u001b[K`)
    }
    if (!terminal && phaseChanged) return write(`${render(progress)}\n`)
    return Effect.void
  }
  const finish: Effect.Effect<void, never, Stdio.Stdio> = Effect.suspend(() => (drawn ? write("\n") : Effect.void))
  return { report, finish }
})

/** Discovery with progress on standard error, returning the snapshot (the snapshot and graph commands). */
export const scanWithProgress = Effect.fn("Progress.scanWithProgress")(function*(options: DiscoverOptions) {
    const reporter = yield* makeReporter
    let result: Snapshot | undefined
    // Discovery and its parsers load here, not with this module: `cairn index` reads LONG_SCAN_FILES.
    const { discoverStream } = yield* Effect.promise(() => import("../discover.ts"))
    yield* discoverStream(options).pipe(
      Stream.runForEach((event) => {
        if (event._tag === "Completed") {
          result = event.snapshot
          return Effect.void
        }
        return reporter.report(event)
      })
    )
    yield* reporter.finish
    return result!
  })
