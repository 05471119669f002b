/**
 * The stretches an outline cuts a file into, as plain data: what the chunker packs. Kept apart from
 * the outline itself, which reads tree-sitter's trees, so that a type naming units (an analysis
 * carrying them, a chunker's input) needs no tree-sitter types.
 */

/** A stretch of the file: offsets in UTF-16 code units, end exclusive. */
export interface Span {
  readonly start: number
  readonly end: number
}

/** A top-level stretch: a declaration with its name, or module code. Shaped as the chunker's unit. */
export interface OutlineUnit extends Span {
  readonly symbols: ReadonlyArray<string>
  readonly declaration: boolean
  readonly children?: (() => ReadonlyArray<Span>) | undefined
}
