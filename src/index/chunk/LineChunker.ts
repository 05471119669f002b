/**
 * The fallback for any text without a structure cairn reads (a file that does not parse, a format
 * with no chunker): consecutive non-blank lines packed up to the target, each chunk headed by the
 * path. It never fails, and an over-long line is cut at sentences, words, then byte windows.
 */
import { lineIndex } from "../../source/Lines.ts"
import type { ChunkOptions } from "./ChunkOptions.ts"
import { type Draft, headerLine } from "./Draft.ts"
import { pack } from "./Packer.ts"
import { lineSpans } from "./TextSplit.ts"
import { MAX_PATH_CHARS } from "./CodeChunker.ts"

export const chunkLines = (path: string, text: string, options: ChunkOptions): Array<Draft> => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lineOf = lineIndex(source)
  const header = headerLine(path, [], MAX_PATH_CHARS, MAX_PATH_CHARS)
  const budget = Math.max(options.targetTokens - options.count(`${header}\n`), Math.floor(options.targetTokens / 4))
  return pack(source, lineSpans(source, 0, source.length), budget, options.count).map((piece) => ({
    headingPath: [],
    symbols: [],
    body: piece.text,
    text: `${header}\n${piece.text}`,
    lineStart: lineOf(piece.start),
    lineEnd: lineOf(piece.end - 1),
    isLinkList: false
  }))
}
