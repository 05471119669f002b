/** Offset-to-line lookup for one text, built once per file. */

/** UTF-16 offsets of the start of every line, as 32-bit integers: a dense file has one per few bytes. */
export const lineStarts = (text: string): Int32Array => {
  let count = 1
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) count++
  const starts = new Int32Array(count)
  let line = 1
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) starts[line++] = index + 1
  return starts
}

/** Returns a function from a UTF-16 offset to its 1-based line; `starts` are the text's line starts. */
export const lineIndex = (text: string, starts: Int32Array = lineStarts(text)): (offset: number) => number => {
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}

/**
 * A text's lines, each read from the text when asked for: a heading-dense file held as an array of
 * line strings cost about four times its bytes. `at` is `Array.prototype.at` for non-negative indexes.
 */
export class TextLines {
  readonly text: string
  readonly starts: Int32Array

  constructor(text: string) {
    this.text = text
    this.starts = lineStarts(text)
  }

  get length(): number {
    return this.starts.length
  }

  /** Line `index` (0-based) without its line feed, or undefined past the last. */
  at(index: number): string | undefined {
    if (index < 0 || index >= this.starts.length) return undefined
    return this.text.slice(this.starts[index]!, index + 1 < this.starts.length ? this.starts[index + 1]! - 1 : this.text.length)
  }
}
