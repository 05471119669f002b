/**
 * Where shadow records go from the command line and the MCP server: `.cairn/shadow.jsonl` under
 * the repository, one record a question, appended. A log that cannot be written costs the answer
 * nothing but a line on stderr.
 */
import { Console, Effect, FileSystem, Path, Schema } from "effect"
import { ShadowRecord, shadowRecall } from "./shadow.ts"

export const SHADOW_LOG = "shadow.jsonl"

/** `shadowRecall`, then the record appended to the repository's log; the stable pack is returned. */
export const recallShadowed = Effect.fnUntraced(function*(root: string, query: unknown, candidate: unknown) {
  const { pack, record } = yield* shadowRecall(query, candidate)
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const line = `${JSON.stringify(Schema.encodeSync(ShadowRecord)(record))}\n`
  yield* fs.writeFileString(path.join(root, ".cairn", SHADOW_LOG), line, { flag: "a" }).pipe(
    Effect.catch((error) => Console.error(`cairn: the shadow record was not written (${error.message})`))
  )
  return pack
})
