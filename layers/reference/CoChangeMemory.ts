/** Reference CoChange: a history given whole (newest first), or none, as a root without git has. */
import { Effect, Layer, Option } from "effect"
import { CoChange } from "../../src/ports/CoChange.ts"
import type { ChangeHistory } from "../../src/domain/ChangeHistory.ts"

/** Commits as path lists, newest first, as a history ending at `head`. */
export const historyOf = (commits: ReadonlyArray<ReadonlyArray<string>>, head = "0".repeat(40)): ChangeHistory => {
  const paths = [...new Set(commits.flat())].sort()
  const idOf = new Map(paths.map((path, id) => [path, id]))
  return { head, paths, commits: commits.map((changed) => [...new Set(changed)].sort().map((path) => idOf.get(path)!)) }
}

export const make = (history: ChangeHistory | undefined): CoChange["Service"] =>
  CoChange.of({ history: (window) => Effect.succeed(window > 0 ? Option.fromUndefinedOr(history) : Option.none()) })

export const layer = (history: ChangeHistory | undefined): Layer.Layer<CoChange> => Layer.sync(CoChange, () => make(history))
