/**
 * Test fixtures: a chunk builder with plausible defaults, so a test names only the fields it is
 * about. Decoded through the Chunk schema, so a fixture can never be a shape production rejects.
 */
import { Schema } from "effect"
import { Chunk } from "../../src/domain/Chunk.ts"

export type ChunkInput = Partial<Omit<Chunk, "id" | "provenance">> & {
  readonly id: string
  readonly provenance?: Partial<Chunk["provenance"]>
}

const decodeChunk = Schema.decodeUnknownSync(Chunk)

export const makeChunk = (input: ChunkInput): Chunk => {
  const path = input.path ?? input.id.split("#")[0] ?? input.id
  const title = input.title ?? path
  return decodeChunk({
    noteId: path,
    path,
    title,
    headingPath: [title],
    text: `${title}`,
    tags: [],
    noteType: "note",
    lineStart: 1,
    lineEnd: 1,
    blockId: input.id,
    contentSha: "0".repeat(64),
    status: "current",
    updated: null,
    isLinkList: false,
    symbols: [],
    ...input,
    provenance: { authorKind: "human", author: null, createdAt: null, state: "accepted", ...input.provenance }
  })
}
