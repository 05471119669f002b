/**
 * What the FTS5 table is fed for a chunk: per column, the analysed surfaces joined by spaces
 * (FTS5's porter stems them itself; see docs/backends.md). The table is contentless, so deleting a
 * row means feeding FTS5 the same values again, recomputed from the stored chunk; the hash stored
 * beside each row proves they are the same, because a stale delete would corrupt FTS5's counts.
 */
import { hashString } from "../../src/index/HashingEmbedder.ts"
import { surfaceText } from "../../src/text/Words.ts"

export type Feed = readonly [text: string, title: string, tags: string]

export const feed = (text: string, title: string, tags: ReadonlyArray<string>): Feed =>
  [surfaceText(text), surfaceText(title), surfaceText(tags.join(" "))]

const SEED = 0x5f3759df

export const feedHash = (values: Feed): number => hashString(values.join("\u0000"), SEED)
