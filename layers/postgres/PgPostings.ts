/**
 * A chunk's postings as the reference layer counts them (LexicalIndexMemory): every folded surface
 * of the text, title and tags columns, stemmed, counted per column; the chunk's length is every
 * surface over all columns. BM25 then weighs the counts by column at query time, so one stored
 * analysis serves any column weights.
 */
import type { Chunk } from "../../src/domain/Chunk.ts"
import { columns } from "../../src/ports/LexicalIndex.ts"
import { stem } from "../../src/text/Porter.ts"
import { surfaces } from "../../src/text/Words.ts"

export interface Analysis {
  /** Per term, its occurrences in text, title and tags, in first-seen order. */
  readonly postings: ReadonlyMap<string, [number, number, number]>
  readonly length: number
}

export const analyse = (chunk: Chunk, stems: Map<string, string> = new Map()): Analysis => {
  const fields = columns(chunk)
  const postings = new Map<string, [number, number, number]>()
  let length = 0
  const texts = [fields.text, fields.title, fields.tags] as const
  for (let column = 0; column < 3; column++) {
    for (const surface of surfaces(texts[column]!)) {
      let term = stems.get(surface)
      if (term === undefined) {
        term = stem(surface)
        stems.set(surface, term)
      }
      let counts = postings.get(term)
      if (counts === undefined) {
        counts = [0, 0, 0]
        postings.set(term, counts)
      }
      counts[column]!++
      length++
    }
  }
  return { postings, length }
}
