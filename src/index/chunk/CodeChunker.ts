/**
 * Code into chunks: one per top-level declaration (for TypeScript and JavaScript a function, class,
 * interface, type, enum, namespace, exported or function-valued variable; for the languages read
 * with tree-sitter what their outline lists), each headed `{path} > {symbol}`; a declaration over
 * the target is split between its body statements or members, then by lines. Imports and other
 * top-level code form the module chunk, headed `{path}`.
 */
import type { ChunkOptions } from "./ChunkOptions.ts"
import { type CodeUnit, withOutline } from "./CodeOutline.ts"
import { type Draft, headerLine } from "./Draft.ts"
import { lineIndex } from "../../source/Lines.ts"
import { pack } from "./Packer.ts"

/** Longest path and symbol list shown in a header line, in UTF-16 code units. */
export const MAX_PATH_CHARS = 200
export const MAX_SYMBOLS_CHARS = 120

/** Overloads and declaration merges (`const X` beside `type X`) are one chunk: adjacent units sharing a name. */
const mergeSiblings = (units: ReadonlyArray<CodeUnit>): Array<CodeUnit> => {
  const groups: Array<Array<CodeUnit>> = []
  for (const unit of units) {
    const group = groups[groups.length - 1]
    const shares = group !== undefined && group[0]!.declaration && unit.declaration &&
      group.some((member) => member.symbols.some((symbol) => unit.symbols.includes(symbol)))
    if (shares) group.push(unit)
    else groups.push([unit])
  }
  return groups.map((group): CodeUnit =>
    group.length === 1 ? group[0]! : {
      start: group[0]!.start,
      end: group[group.length - 1]!.end,
      symbols: [...new Set(group.flatMap((member) => member.symbols))],
      declaration: true,
      children: () => group
    }
  )
}

/**
 * Declaration and module chunks of units covering a file, in line order. Each unit's `children`
 * are read here, so a caller whose units hold a parse calls this while the parse is alive.
 */
export const chunkUnits = (path: string, source: string, outline: ReadonlyArray<CodeUnit>, options: ChunkOptions): Array<Draft> => {
  const lineOf = lineIndex(source)
  const budgetFor = (header: string) =>
    Math.max(options.targetTokens - options.count(`${header}\n`), Math.floor(options.targetTokens / 4))
  const drafts: Array<{ readonly at: number; readonly draft: Draft }> = []
  const units = mergeSiblings(outline)
  for (const unit of units) {
    if (!unit.declaration) continue
    const header = headerLine(path, [unit.symbols.join(", ")], MAX_PATH_CHARS, MAX_SYMBOLS_CHARS)
    for (const piece of pack(source, [unit], budgetFor(header), options.count)) {
      drafts.push({ at: piece.start, draft: {
        headingPath: [],
        symbols: unit.symbols,
        body: piece.text,
        text: `${header}\n${piece.text}`,
        lineStart: lineOf(piece.start),
        lineEnd: lineOf(piece.end - 1),
        isLinkList: false
      } })
    }
  }
  const module = units.filter((unit) => !unit.declaration)
  const header = headerLine(path, [], MAX_PATH_CHARS, MAX_SYMBOLS_CHARS)
  let next = 0
  for (const piece of pack(source, module, budgetFor(header), options.count)) {
    // Pieces and units are both in source order, so one forward walk finds each piece's units.
    while (next < module.length && module[next]!.end <= piece.start) next++
    const symbols: Array<string> = []
    for (let i = next; i < module.length && module[i]!.start < piece.end; i++) symbols.push(...module[i]!.symbols)
    drafts.push({ at: piece.start, draft: {
      headingPath: [],
      symbols: [...new Set(symbols)],
      body: piece.text,
      text: `${header}\n${piece.text}`,
      lineStart: lineOf(piece.start),
      lineEnd: lineOf(piece.end - 1),
      isLinkList: false
    } })
  }
  // Pieces never share a start offset, so source order is a total order.
  return drafts.sort((a, b) => a.at - b.at).map(({ draft }) => draft)
}

/** A TypeScript or JavaScript file's chunks in line order, or undefined when the file does not parse. */
export const chunkCode = (path: string, text: string, options: ChunkOptions): Array<Draft> | undefined => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  return withOutline(path, source, (outline) => chunkUnits(path, source, outline, options), options.alone)
}
