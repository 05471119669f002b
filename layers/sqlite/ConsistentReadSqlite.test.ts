import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as NodePath from "node:path"
import { IndexStore } from "../../src/ports/IndexStore.ts"
import { contract, OtherWriter } from "../contracts/ConsistentRead.contract.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as ConsistentReadSqlite from "./ConsistentReadSqlite.ts"
import * as Database from "./Database.ts"
import * as IndexStoreSqlite from "./IndexStoreSqlite.ts"
import { coldBuild, MANIFEST, openSeeded, tempDir, write } from "./testing/Fixtures.ts"

/**
 * An index file in a temporary folder: the other writer on a connection of its own, opened first
 * (it makes the file), and the reader on another, opened for reading alone or not.
 */
const index = (reader: { readonly readOnly: boolean }) =>
  Layer.unwrap(Effect.gen(function*() {
    const path = NodePath.join(yield* tempDir, "index.sqlite")
    // Fresh: the reader's IndexStore is a layer of its own, over its own connection, not the writer's.
    const writer = Layer.effect(OtherWriter, Effect.service(IndexStore)).pipe(Layer.provide(Layer.fresh(IndexStoreSqlite.layer)), Layer.provide(Database.layer({ path })))
    const reading = Layer.mergeAll(ConsistentReadSqlite.layer, IndexStoreSqlite.layer).pipe(Layer.provide(Database.layer({ path, readOnly: reader.readOnly })))
    return reading.pipe(Layer.provideMerge(writer))
  }))

// Every ConsistentRead backend's behaviour, as the embedded layers read the index and as a writer's own connection would.
contract("sqlite, read-only connection", index({ readOnly: true }))
contract("sqlite, writable connection", index({ readOnly: false }))

const chunks = softwareChunks()

describe("ConsistentReadSqlite", () => {
  it.live("within - questions that overlap share one snapshot; the last to end lets the next see new commits", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const writer = yield* openSeeded(coldBuild(chunks.slice(0, 20)), path)
      const reader = yield* Database.open({ path, readOnly: true })
      const read = yield* ConsistentReadSqlite.make.pipe(Effect.provideService(Database.Database, reader))
      const count = Effect.sync(() => Number((reader.connection.prepare("SELECT count(*) AS n FROM chunks").get() as { n: number }).n))
      const seen: Array<number> = []
      const question = (committing: boolean) =>
        read.within(Effect.gen(function*() {
          seen.push(yield* count)
          if (committing) yield* write(writer, { chunks: chunks.slice(20, 30), manifest: MANIFEST })
          yield* Effect.sleep("20 millis")
          seen.push(yield* count)
        }))
      yield* Effect.all([question(true), question(false)], { concurrency: "unbounded" })
      assert.deepStrictEqual(seen, [20, 20, 20, 20])
      assert.isFalse(reader.connection.isTransaction)
      assert.strictEqual(yield* read.within(count), 30)
      assert.isFalse(reader.connection.isTransaction)
    }), 30_000)

  it.effect("within - a transaction already open on the connection is its owner's to end", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const database = yield* openSeeded(coldBuild(chunks.slice(0, 5)), path)
      const read = yield* ConsistentReadSqlite.make.pipe(Effect.provideService(Database.Database, database))
      database.connection.exec("BEGIN")
      yield* read.within(Effect.void)
      assert.isTrue(database.connection.isTransaction)
      database.connection.exec("COMMIT")
    }), 30_000)
})
