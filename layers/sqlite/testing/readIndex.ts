/**
 * The other process of the concurrency tests: opens an index read-only, searches it and prints the
 * hits as JSON (or the error's message on stderr, exit code 1).
 * Usage: node readIndex.ts <index path> <query>
 */
import { Effect, Layer } from "effect"
import { LexicalIndex } from "../../../src/ports/LexicalIndex.ts"
import * as Database from "../Database.ts"
import * as LexicalIndexSqlite from "../LexicalIndexSqlite.ts"

const [path = "", query = ""] = process.argv.slice(2)

const program = Effect.gen(function*() {
  const index = yield* LexicalIndex
  return yield* index.search(query, 10, {})
}).pipe(Effect.provide(LexicalIndexSqlite.layer().pipe(Layer.provide(Database.layer({ path, readOnly: true })))))

Effect.runPromise(program).then(
  (hits) => process.stdout.write(JSON.stringify(hits)),
  (error: unknown) => {
    process.stderr.write(error instanceof Error ? error.message : String(error))
    process.exitCode = 1
  }
)
