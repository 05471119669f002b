/**
 * Regions of a document a generator owns: `<!-- cairn:generated … -->` up to
 * `<!-- /cairn:generated -->`. Their mentions are ignored, so cairn never reads its own output back
 * as evidence about the repository. An unclosed marker owns the rest of the file.
 */
import type { LineRange } from "../domain/Snapshot.ts"

const OPEN = /<!--\s*cairn:generated\b/
const CLOSE = /<!--\s*\/cairn:generated\s*-->/

export const generatedRegions = (text: string): Array<LineRange> => {
  const lines = text.split("\n")
  const regions: Array<LineRange> = []
  let start: number | undefined
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (start === undefined) {
      if (OPEN.test(line)) start = index + 1
      // A close marker on the opening line closes a one-line region.
      if (start !== undefined && CLOSE.test(line.slice(line.search(OPEN) + 1))) {
        regions.push({ startLine: start, endLine: start })
        start = undefined
      }
    } else if (CLOSE.test(line)) {
      regions.push({ startLine: start, endLine: index + 1 })
      start = undefined
    }
  }
  if (start !== undefined) regions.push({ startLine: start, endLine: lines.length })
  return regions
}

export const isInside = (regions: ReadonlyArray<LineRange>, line: number): boolean =>
  regions.some((region) => line >= region.startLine && line <= region.endLine)
