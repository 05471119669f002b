/**
 * Regions of a document a generator owns: `<!-- cairn:generated … -->` up to
 * `<!-- /cairn:generated -->`. Their mentions are ignored, so cairn never reads its own output back
 * as evidence about the repository. An unclosed marker owns the rest of the file.
 */
import type { LineRange } from "../domain/Snapshot.ts"

const OPEN = /<!--\s*cairn:generated\b/
const CLOSE = /<!--\s*\/cairn:generated\s*-->/

export const generatedRegions = (text: string): Array<LineRange> => {
  const regions: Array<LineRange> = []
  if (!text.includes("cairn:generated")) return regions
  let start: number | undefined
  let lineNumber = 0
  // Line by line without splitting the text: a file of short lines held as strings costs several times its bytes.
  for (let from = 0; from <= text.length;) {
    const feed = text.indexOf("\n", from)
    const line = text.slice(from, feed < 0 ? text.length : feed)
    from = feed < 0 ? text.length + 1 : feed + 1
    lineNumber++
    if (start === undefined) {
      if (OPEN.test(line)) start = lineNumber
      // A close marker on the opening line closes a one-line region.
      if (start !== undefined && CLOSE.test(line.slice(line.search(OPEN) + 1))) {
        regions.push({ startLine: start, endLine: start })
        start = undefined
      }
    } else if (CLOSE.test(line)) {
      regions.push({ startLine: start, endLine: lineNumber })
      start = undefined
    }
  }
  if (start !== undefined) regions.push({ startLine: start, endLine: lineNumber })
  return regions
}

export const isInside = (regions: ReadonlyArray<LineRange>, line: number): boolean =>
  regions.some((region) => line >= region.startLine && line <= region.endLine)
