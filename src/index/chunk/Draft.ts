/**
 * A chunk before hashing and provenance: its text, where it sits, and what it declares. The
 * Markdown, code and line-window chunkers all produce drafts; `chunkFile` turns them into chunks.
 */
export interface Draft {
  /** Heading path below the note title; empty for code, preambles and line windows. */
  readonly headingPath: ReadonlyArray<string>
  /** Symbols a code chunk declares. */
  readonly symbols: ReadonlyArray<string>
  /** The text without its header line: what the block id is derived from. */
  readonly body: string
  /** The text as indexed: the header line, a line break, the body. */
  readonly text: string
  /** 1-based inclusive lines in the source. */
  readonly lineStart: number
  readonly lineEnd: number
  readonly isLinkList: boolean
}

/** The part of a header shown for one name: one line, and cut with an ellipsis when longer than `limit`. */
export const clampName = (name: string, limit: number): string => {
  const line = name.replace(/\s+/g, " ").trim()
  if (line.length <= limit) return line
  const cut = line.slice(0, limit - 1)
  // Never leave half a surrogate pair at the cut.
  const last = cut.charCodeAt(cut.length - 1)
  return `${(last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut).trimEnd()}…`
}

/** `{title} > {a} > {b}`, each part clamped. */
export const headerLine = (title: string, path: ReadonlyArray<string>, titleLimit: number, partLimit: number): string =>
  [clampName(title, titleLimit), ...path.map((part) => clampName(part, partLimit))].join(" > ")
