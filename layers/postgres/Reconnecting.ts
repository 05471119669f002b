/**
 * A read that outlives its question's connection. A question reads inside one transaction
 * (ConsistentReadPg); when that connection is lost mid-question, the legs that were reading on it
 * fail and the pack says so (`leg_failed`), but what the pack is made of still has to be read: such
 * a read is tried once more outside the transaction, on a new connection from the pool.
 */
import { Context, Effect } from "effect"
import type { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

/** The transaction can take no more statements (SQLSTATE 25P02): an earlier one failed in it. */
const abandoned = (error: SqlError): boolean => {
  const cause = "cause" in error.reason ? error.reason.cause : undefined
  const code = typeof cause === "object" && cause !== null && "code" in cause ? cause.code : undefined
  return code === "25P02" || /current transaction is aborted/.test(String(cause))
}

export const reconnecting = (sql: SqlClient) => <A, R>(read: Effect.Effect<A, SqlError, R>): Effect.Effect<A, SqlError, R> =>
  read.pipe(Effect.catchTag("SqlError", (error) =>
    Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) =>
      // Only a lost connection, or a transaction it left unusable: a statement the server refused
      // would be refused again, and a pool whose every connection holds a question has none to lend.
      open._tag === "None" || !(error.reason._tag === "ConnectionError" || abandoned(error))
        ? Effect.fail(error)
        : Effect.updateContext(read, (context: Context.Context<R>) => Context.omit(sql.transactionService)(context) as Context.Context<R>)
    )))

/**
 * A leg's statements inside the question's transaction, behind a savepoint: a leg cut off by its
 * deadline has its statement cancelled, which would abort the whole transaction and every read
 * after it; rolled back to a savepoint, the question reads on. Legs run concurrently on the one
 * connection, and savepoints nest: releasing or rolling back to one destroys every savepoint set
 * after it, so a leg's own savepoint may be gone when it ends, and naming it then would fail and
 * abort the transaction. Every leg therefore sets a savepoint of one shared name and never
 * releases it; a failed leg rolls back to the latest of that name, which was set before the
 * failure (an aborted transaction takes no new savepoint), and a read-only transaction loses
 * nothing by it. The savepoint's own statements may fail with the connection: their failures are
 * not the leg's, so they are let go.
 */
const SAVEPOINT = "cairn_leg"

export const abandonable = (sql: SqlClient) => <A, E, R>(leg: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.serviceOption(sql.transactionService), (open) =>
    open._tag === "None" ? leg : Effect.acquireUseRelease(
      Effect.ignore(sql.unsafe(`SAVEPOINT ${SAVEPOINT}`)),
      () => leg,
      (_, exit) => exit._tag === "Success" ? Effect.void : Effect.ignore(sql.unsafe(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`))
    ))
