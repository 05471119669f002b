/**
 * A stage under the soft deadline: what it found, or that it ran out of time, or that it failed and
 * why. Every leg and every later stage that may miss the deadline answers through this, so a late
 * or failed stage degrades the pack the same way wherever it runs.
 */
import { Duration, Effect, Option } from "effect"

export type Outcome<A> =
  | { readonly status: "done"; readonly value: A }
  | { readonly status: "timed_out" }
  | { readonly status: "failed"; readonly detail: string }

const messageOf = (error: unknown): string => String((error as { message?: unknown } | undefined)?.message ?? error)

export const underDeadline = <A, E, R>(stage: Effect.Effect<A, E, R>, softTimeoutMs: number): Effect.Effect<Outcome<A>, never, R> =>
  stage.pipe(
    Effect.timeoutOption(Duration.millis(softTimeoutMs)),
    Effect.map((found): Outcome<A> => (Option.isSome(found) ? { status: "done", value: found.value } : { status: "timed_out" })),
    Effect.catch((error) => Effect.succeed<Outcome<A>>({ status: "failed", detail: messageOf(error) }))
  )

/** The value, or `fallback` when the stage ran out of time or failed. */
export const valueOr = <A>(outcome: Outcome<A>, fallback: A): A => (outcome.status === "done" ? outcome.value : fallback)

/** The detail of a failure, for the stage's report. */
export const detailOf = (outcome: Outcome<unknown>): string | undefined => (outcome.status === "failed" ? outcome.detail : undefined)
