/**
 * ConsistentRead on PostgreSQL: a question runs in one read-only REPEATABLE READ transaction, so
 * every read sees the snapshot taken at its first statement and a commit that lands meanwhile is
 * seen whole by the next question. Inside a transaction already open (a writer's, or a question's
 * own), the reads join it. A transaction that cannot begin leaves the question to read as it can:
 * its own reads then fail and say why, as a leg's failure.
 */
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { ConsistentRead } from "../../src/ports/ConsistentRead.ts"
import { PgIndex } from "./PgIndex.ts"

export const make = Effect.gen(function*() {
  const { sql } = yield* PgIndex
  return ConsistentRead.of({
    within: <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) => {
        if (Option.isSome(open)) return effect
        // The question's outcome is kept whatever the transaction does: a read-only one has nothing
        // to lose at its end, and only its own statements can fail as SqlError (the ports map theirs).
        let outcome: Exit.Exit<A, E> | undefined
        const question = Effect.andThen(
          sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`,
          Effect.tap(Effect.exit(effect), (exit) => Effect.sync(() => {
            outcome = exit
          }))
        )
        // The transaction's own end can fail, or die, with its connection (a ROLLBACK on a closed
        // socket): the question's outcome stands; a question that never began reads without one.
        return sql.withTransaction(question).pipe(
          Effect.catchCause((cause) =>
            outcome !== undefined ? Effect.succeed(outcome)
              : Cause.hasInterrupts(cause) ? Effect.failCause(cause as Cause.Cause<never>)
              : Effect.exit(effect)
          ),
          Effect.flatten
        ) as Effect.Effect<A, E, R>
      })
  })
})

export const layer: Layer.Layer<ConsistentRead, never, PgIndex> = Layer.effect(ConsistentRead, make)
