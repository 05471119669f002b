/**
 * Evaluation happens at the corpus's anchor date, not at the wall clock, so a run today and a run in
 * six months differ only where the code differs. Wall-clock reads return the anchor; sleeping and
 * elapsed-time measurement stay real, so soft deadlines and latency figures still mean something.
 */
import { Clock, Effect } from "effect"

export const anchored = (anchorMillis: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Clock.clockWith((real) =>
      // Inherit from the real clock so everything but the wall-clock reads (sleep, monotonic and
      // nanosecond time) keeps working as it did.
      Effect.provideService(effect, Clock.Clock, Object.create(real, {
        currentTimeMillisUnsafe: { value: () => anchorMillis },
        currentTimeMillis: { value: Effect.succeed(anchorMillis) }
      }) as Clock.Clock)
    )
