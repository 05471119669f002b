/**
 * ConsistentRead over the index file: one read transaction on the connection for as long as any
 * question runs on it. In WAL mode a reader's snapshot is fixed at its transaction's first read,
 * and commits of other connections land beside it, unseen until it ends. Questions that overlap
 * share the transaction (the connection has only one); the last to finish ends it, so the next
 * question starts on the newest commit. A transaction already open on the connection is left to
 * its owner, and the question reads inside it.
 */
import { Effect, Layer } from "effect"
import { ConsistentRead } from "../../src/ports/ConsistentRead.ts"
import { Database } from "./Database.ts"

export const make = Effect.gen(function*() {
  const { connection: db } = yield* Database
  let readers = 0
  let began = false
  const enter = Effect.sync(() => {
    if (readers++ > 0 || db.isTransaction) return
    try {
      db.exec("BEGIN")
      // A deferred transaction takes its snapshot at its first read: take it now.
      db.prepare("SELECT count(*) FROM sqlite_master").get()
      began = true
    } catch {
      // An unreadable file: the question's own reads fail and say why.
      if (db.isTransaction) db.exec("ROLLBACK")
    }
  })
  const leave = Effect.sync(() => {
    if (--readers > 0 || !began) return
    began = false
    if (db.isTransaction) db.exec("COMMIT")
  })
  return ConsistentRead.of({ within: (effect) => Effect.acquireUseRelease(enter, () => effect, () => leave) })
})

export const layer: Layer.Layer<ConsistentRead, never, Database> = Layer.effect(ConsistentRead, make)
