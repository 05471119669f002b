/** Offset-to-line lookup for one text, built once per file. */

/** Returns a function from a UTF-16 offset to its 1-based line. */
export const lineIndex = (text: string): (offset: number) => number => {
  const starts = [0]
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) starts.push(index + 1)
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
