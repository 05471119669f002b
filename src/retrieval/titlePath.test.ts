import { assert, describe, it } from "@effect/vitest"
import type { ChunkId } from "../domain/Chunk.ts"
import * as RetrievalConfig from "../RetrievalConfig.ts"
import type { NoteSummary } from "../ports/CandidateStore.ts"
import { nameNotes, scoreNote } from "./titlePath.ts"
import { analysedStopwords } from "../text/Stopwords.ts"

const note = (id: string, title: string): NoteSummary => ({ id, title, path: id, chunkCount: 1, leadChunk: `${id}#0` as ChunkId })
const notes = [
  note("handbook/how-we-work.md", "How we work"),
  note("runbooks/deploy-rollback.md", "Deploy rollback"),
  note("decisions/blue-green.md", "Blue-green deploys")
]
const options = { titlePathLimit: 20, titlePathMinScore: 0.5, stopwords: analysedStopwords(RetrievalConfig.defaults.gapStopwords) }

describe("title/path channel", () => {
  it("scores the smaller of the two coverages", () => {
    assert.strictEqual(scoreNote(new Set(["a", "b", "c", "d"]), new Set(["a", "b"])), 0.5)
    assert.strictEqual(scoreNote(new Set(["a"]), new Set(["a", "b", "c"])), 1 / 3)
  })

  it("names the note the question names", () => {
    assert.deepStrictEqual(nameNotes("deploy rollback runbook", notes, options).map((n) => [n.note, n.score]), [
      ["runbooks/deploy-rollback.md", 2 / 3]
    ])
  })

  it("abstains on function words alone", () => {
    assert.deepStrictEqual(nameNotes("how do we", notes, options), [])
    assert.deepStrictEqual(nameNotes("a of we", notes, options), [])
  })

  it("abstains when the name is a small part of a long question", () => {
    assert.deepStrictEqual(nameNotes("what happened with the deploy yesterday after lunch when payments failed", notes, options), [])
  })

  it("a limit of zero switches the channel off", () => {
    assert.deepStrictEqual(nameNotes("deploy rollback", notes, { ...options, titlePathLimit: 0 }), [])
  })
})
