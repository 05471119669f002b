/** JSON with comments and trailing commas, as tsconfig files are written. */

const endOfString = (text: string, start: number): number => {
  let end = start + 1
  while (end < text.length && text[end] !== "\"") end += text[end] === "\\" ? 2 : 1
  return end + 1
}

/** Removes comments outside strings, then commas that precede a closing bracket. */
export const stripJsonc = (text: string): string => {
  let bare = ""
  for (let index = 0; index < text.length;) {
    const char = text[index]!
    if (char === "\"") {
      const end = endOfString(text, index)
      bare += text.slice(index, end)
      index = end
    } else if (char === "/" && text[index + 1] === "/") {
      while (index < text.length && text[index] !== "\n") index++
    } else if (char === "/" && text[index + 1] === "*") {
      const end = text.indexOf("*/", index + 2)
      index = end < 0 ? text.length : end + 2
    } else {
      bare += char
      index++
    }
  }
  let out = ""
  for (let index = 0; index < bare.length;) {
    const char = bare[index]!
    if (char === "\"") {
      const end = endOfString(bare, index)
      out += bare.slice(index, end)
      index = end
      continue
    }
    if (char === ",") {
      let next = index + 1
      while (next < bare.length && /\s/.test(bare[next]!)) next++
      if (bare[next] === "}" || bare[next] === "]") {
        index++
        continue
      }
    }
    out += char
    index++
  }
  return out
}

/** Parses JSONC; throws `SyntaxError` like `JSON.parse` on anything else. */
export const parseJsonc = (text: string): unknown => JSON.parse(stripJsonc(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text))
