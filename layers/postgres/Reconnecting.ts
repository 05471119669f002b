/**
 * A read that outlives its question's connection. A question reads inside one transaction
 * (ConsistentReadPg); when that connection is lost mid-question, the legs that were reading on it
 * fail and the pack says so (`leg_failed`), but what the pack is made of still has to be read: such
 * a read is tried once more outside the transaction, on a new connection from the pool.
 */
import { Context, Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

export const reconnecting = (sql: SqlClient) => <A, R>(read: Effect.Effect<A, SqlError, R>): Effect.Effect<A, SqlError, R> =>
  read.pipe(Effect.catchTag("SqlError", (error) =>
    Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) =>
      open._tag === "None" ? Effect.fail(error) : Effect.updateContext(read, (context: Context.Context<R>) => Context.omit(sql.transactionService)(context) as Context.Context<R>)
    )))
