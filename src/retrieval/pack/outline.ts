/**
 * A code claim as an outline: its signatures and comments kept, its bodies elided to one marker
 * line naming the source lines left out, so more files fit a budget and an agent still knows
 * where to read. Nesting is read from braces for brace languages and from indentation for Python;
 * braces inside strings and comments are skipped, so a `"{"` does not open a body.
 *
 * A line is kept when it is a comment or sits at the declaration's own level, or one level in when
 * that level is a class, interface, enum or namespace body (its members' signatures). A chunk
 * whose outline would save nothing is left whole.
 */

const MEMBER_SCOPES = /\b(class|interface|enum|namespace|module|trait|impl|struct|object)\b/
const COMMENT = /^\s*(\/\/|\/\*|\*|#(?![[!])|"""|''')/

/** Depth at the start of each line for a brace language, strings and comments skipped. */
const braceDepths = (lines: ReadonlyArray<string>): Array<number> => {
  const depths: Array<number> = []
  let depth = 0
  let inBlockComment = false
  let quote: string | undefined
  for (const line of lines) {
    // A line that opens by closing a body (`}`, `})`) belongs to the level it closes back to.
    const closers = inBlockComment || quote !== undefined ? 0 : (/^\s*(\}+)/.exec(line)?.[1]?.length ?? 0)
    depths.push(Math.max(0, depth - closers))
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!
      if (inBlockComment) {
        if (c === "*" && line[i + 1] === "/") {
          inBlockComment = false
          i++
        }
      } else if (quote !== undefined) {
        if (c === "\\") i++
        else if (c === quote) quote = undefined
      } else if (c === "/" && line[i + 1] === "/") {
        break
      } else if (c === "/" && line[i + 1] === "*") {
        inBlockComment = true
        i++
      } else if (c === "\"" || c === "'" || c === "`") {
        quote = c
      } else if (c === "{") {
        depth++
      } else if (c === "}") {
        depth = Math.max(0, depth - 1)
      }
    }
    // A plain string ends with its line; only a template literal runs on.
    if (quote !== "`") quote = undefined
  }
  return depths
}

/** Indentation levels for Python: each distinct indentation deeper than the last opens one. */
const indentDepths = (lines: ReadonlyArray<string>): Array<number> => {
  const stack: Array<number> = [0]
  return lines.map((line) => {
    if (line.trim() === "") return stack.length - 1
    const indent = line.length - line.trimStart().length
    while (stack.length > 1 && indent < stack[stack.length - 1]!) stack.pop()
    if (indent > stack[stack.length - 1]!) stack.push(indent)
    return stack.length - 1
  })
}

/**
 * `text` is a chunk's text: its title line, then source lines from `lineStart`. The outline keeps
 * the title line and returns the text unchanged when nothing would be elided.
 */
export const outlineCode = (text: string, lineStart: number, path: string): string => {
  const newline = text.indexOf("\n")
  if (newline === -1) return text
  const title = text.slice(0, newline)
  const lines = text.slice(newline + 1).split("\n")
  const python = /\.pyi?$/.test(path)
  const depths = python ? indentDepths(lines) : braceDepths(lines)
  const base = Math.min(...lines.map((line, i) => (line.trim() === "" ? Number.POSITIVE_INFINITY : depths[i]!)))
  if (!Number.isFinite(base)) return text
  // Member scopes: the levels opened by a kept line that declares a class-like body.
  const keep = lines.map(() => false)
  let memberLevel = Number.NEGATIVE_INFINITY
  for (let i = 0; i < lines.length; i++) {
    const depth = depths[i]! - base
    const line = lines[i]!
    if (depth === 0) memberLevel = MEMBER_SCOPES.test(line) ? 1 : Number.NEGATIVE_INFINITY
    keep[i] = depth === 0 || depth === memberLevel || (depth <= 1 && COMMENT.test(line))
    // A blank line is kept only between kept lines, never inside an elided body.
    if (line.trim() === "") keep[i] = depth === 0
  }
  const out: Array<string> = [title]
  for (let i = 0; i < lines.length;) {
    if (keep[i]) {
      out.push(lines[i]!)
      i++
      continue
    }
    let end = i
    while (end + 1 < lines.length && !keep[end + 1]) end++
    const indent = /^\s*/.exec(lines[i]!)![0]
    out.push(`${indent}… lines ${lineStart + i}-${lineStart + end} elided`)
    i = end + 1
  }
  // A line traded for a marker saves nothing and hides the line.
  return out.length >= lines.length + 1 ? text : out.join("\n")
}
