/**
 * The crashing writer of the interrupted-write test: starts a cold rebuild of the index at the
 * given path with 400 generated chunks, and when the writer reads the 200th chunk's text (half way
 * through the transaction) prints `mid-write` and spins until it is killed.
 * Usage: node writeAndHang.ts <index path>
 */
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import type { Chunk } from "../../../src/domain/Chunk.ts"
import { makeChunk } from "../../contracts/ChunkFixtures.ts"
import * as Database from "../Database.ts"
import { coldBuild, write } from "./Fixtures.ts"

const [path = ""] = process.argv.slice(2)

const chunks: Array<Chunk> = Array.from({ length: 400 }, (_, i) => {
  const chunk = makeChunk({ id: `crash/${String(i).padStart(3, "0")}.md#x`, text: `replacement words number ${i}` })
  if (i !== 200) return chunk
  return Object.defineProperty({ ...chunk }, "text", {
    get: () => {
      NodeFs.writeSync(1, "mid-write\n")
      for (;;) {
        // Spin: the process must die inside the open transaction.
      }
    }
  })
})

Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  const database = yield* Database.open({ path })
  yield* write(database, coldBuild(chunks))
}))).then(() => process.stdout.write("committed\n"))
