/**
 * How deep oxc-parser would recurse on a TypeScript or JavaScript file, over-estimated in one
 * linear pass. The parser recurses natively and kills the process (a segmentation fault, not an
 * exception) a few thousand levels down, and brackets are not the only way down: `a = a = …`,
 * `c ? x : c ? x : …`, `else if` chains, labels, prefix operators, arrows, `new`, generic arguments,
 * JSX elements and conditional types each nest one level without any bracket.
 *
 * The estimate is the open brackets plus, at each open bracket, the nesting tokens seen since that
 * level's last expression or statement boundary: `;` (unless `else` follows), `,`, a `case`, a block
 * followed by a new statement, and a line break between two operands, where a statement must end
 * (automatic semicolon insertion; code written without semicolons would otherwise add up).
 * Strings, comments, template text and regular expressions are skipped, so a separator line of
 * `=====` in a comment counts nothing. The parser loops over a chain of binary operators, member
 * accesses, calls or indexes rather than recursing, but the tree it builds is as deep as the chain,
 * and serialising that tree recurses: each such operator counts a sixteenth of a level (a chain of
 * 30,000 `+` serialised on a worker's 4 MB stack, one of 50,000 did not).
 */

/** The deepest estimate a file may reach and still be handed to the parser. */
export const MAX_PARSE_DEPTH = 1000

/** The estimate's unit is a sixteenth of a level, so that a looped operator can count as one. */
const LEVEL = 16

const NESTING_WORDS = new Set([
  "if", "else", "while", "for", "do", "with",
  "typeof", "void", "delete", "await", "yield", "new", "keyof", "infer", "extends"
])

/** Words after which an expression, not an operator, comes next: a `/` there opens a regex. */
const EXPRESSION_BEFORE = new Set([
  ...NESTING_WORDS, "return", "throw", "case", "in", "of", "instanceof", "as", "satisfies", "export", "default"
])

/** Words that carry on the statement or expression a closing `}` was part of. */
const CONTINUATIONS = new Set([
  "else", "catch", "finally", "while", "instanceof", "in", "of", "as", "satisfies", "extends", "implements"
])

const isWordCode = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ||
  code === 95 || code === 36 || code === 92 || code === 35 || code >= 128
const isDigit = (code: number) => code >= 48 && code <= 57
const isSpace = (code: number) => code <= 32 || code === 0xa0 || code === 0xfeff || code === 0x2028 || code === 0x2029

/** What the previous token leaves to the next: after `;`, a new statement unless `else` follows;
 * after a closing `}`, a new statement if the next word does not carry on. */
const Pending = { None: 0, Semicolon: 1, Brace: 2 } as const
type Pending = typeof Pending[keyof typeof Pending]

/** An open level: a bracket; a template's `${`, whose `}` returns to template text; or the
 * condition of `if`, `while`, `for` or `with`, whose `)` is followed by the statement's body. */
const Level = { Bracket: 0, Substitution: 1, Head: 2 } as const
type Level = typeof Level[keyof typeof Level]

const HEADS = new Set(["if", "while", "for", "with"])

export const parseDepth = (text: string): number => {
  const length = text.length
  // Per open level: nesting tokens since its last boundary, and generic `<` still open.
  const chains: Array<number> = [0]
  const angles: Array<number> = [0]
  const kinds: Array<Level> = [Level.Bracket]
  let total = 0
  let deepest = 0
  // The previous token ends an operand: a `/` after it divides, a `+` is binary, and a line break
  // before another operand ends the statement.
  let operand = false
  let pending: Pending = Pending.None
  let newline = false
  let afterHead = false
  let lastWord = ""
  // Inside `</a>`: its `>` ends the element, an operand.
  let closingTag = false
  let index = 0

  const top = () => chains.length - 1
  const raise = (by: number) => {
    total += by
    if (total > deepest) deepest = total
  }
  const nest = (by: number = LEVEL) => {
    chains[top()]! += by
    raise(by)
  }
  const unnest = () => {
    const level = top()
    const taken = Math.min(LEVEL, chains[level]!)
    chains[level]! -= taken
    total -= taken
  }
  const boundary = () => {
    const level = top()
    total -= chains[level]! + angles[level]!
    chains[level] = 0
    angles[level] = 0
  }
  // Settles what the previous tokens left open, before a token; `word` is the token if a word.
  const settle = (word: string | undefined, startsOperand: boolean) => {
    if (pending === Pending.Semicolon ? word !== "else" : pending === Pending.Brace && word !== undefined && !CONTINUATIONS.has(word)) {
      boundary()
    }
    if (newline && operand && !afterHead && startsOperand && !(word !== undefined && CONTINUATIONS.has(word))) boundary()
    pending = Pending.None
    newline = false
    afterHead = false
  }
  const open = (kind: Level) => {
    chains.push(0)
    angles.push(0)
    kinds.push(kind)
    raise(LEVEL)
  }
  // Template text up to its end or its next `${`; returns the index after what it consumed.
  const templateText = (from: number): number => {
    let at = from
    while (at < length) {
      const code = text.charCodeAt(at)
      if (code === 92) {
        at += 2
      } else if (code === 96) {
        operand = true
        return at + 1
      } else if (code === 36 && text.charCodeAt(at + 1) === 123) {
        open(Level.Substitution)
        operand = false
        return at + 2
      } else {
        at++
      }
    }
    return at
  }

  while (index < length) {
    const code = text.charCodeAt(index)
    if (isSpace(code)) {
      if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) newline = true
      index++
      continue
    }
    const next = text.charCodeAt(index + 1)
    // Comments are not tokens: they neither count nor settle a pending boundary.
    if (code === 47 && next === 47) {
      const end = text.indexOf("\n", index + 2)
      index = end === -1 ? length : end + 1
      newline = true
      continue
    }
    if (code === 47 && next === 42) {
      const end = text.indexOf("*/", index + 2)
      const stop = end === -1 ? length : end + 2
      if (text.slice(index, stop).includes("\n")) newline = true
      index = stop
      continue
    }

    if (isWordCode(code) && !isDigit(code)) {
      let end = index + 1
      while (end < length && isWordCode(text.charCodeAt(end))) end++
      const word = text.slice(index, end)
      settle(word, true)
      if (NESTING_WORDS.has(word)) nest()
      else if (word === "as" || word === "satisfies") nest(1)
      else if (word === "case" || word === "default") boundary()
      operand = !EXPRESSION_BEFORE.has(word)
      lastWord = word
      index = end
      continue
    }
    const previousWord = lastWord
    lastWord = ""
    if (isDigit(code) || (code === 46 && isDigit(next))) {
      settle(undefined, true)
      index++
      while (index < length && (isWordCode(text.charCodeAt(index)) || text.charCodeAt(index) === 46)) index++
      operand = true
      continue
    }
    if (code === 34 || code === 39) {
      settle(undefined, true)
      // A string ends at its quote or, unterminated, at the line's end.
      let at = index + 1
      while (at < length) {
        const c = text.charCodeAt(at)
        if (c === code || c === 10) break
        at += c === 92 ? 2 : 1
      }
      index = at + 1
      operand = true
      continue
    }
    settle(undefined, false)

    switch (code) {
      case 96:
        index = templateText(index + 1)
        continue
      case 40:
      case 91:
      case 123:
        // `a[0][0]`, `T[][]`, `f()()`: an index or call after an operand loops.
        if (code !== 123 && operand) nest(1)
        open(code === 40 && HEADS.has(previousWord) ? Level.Head : Level.Bracket)
        operand = false
        index++
        continue
      case 41:
      case 93:
      case 125: {
        index++
        operand = true
        if (chains.length === 1) continue
        const level = top()
        total -= LEVEL + chains[level]! + angles[level]!
        chains.pop()
        angles.pop()
        const kind = kinds.pop()!
        if (kind === Level.Substitution) index = templateText(index)
        else if (kind === Level.Head) afterHead = true
        else if (code === 125) pending = Pending.Brace
        continue
      }
      case 59:
        pending = Pending.Semicolon
        operand = false
        index++
        continue
      case 44: {
        const level = top()
        total -= chains[level]!
        chains[level] = 0
        operand = false
        index++
        continue
      }
      case 47: {
        if (next === 62) {
          // `/>` closes a JSX element.
          unnest()
          operand = true
          index += 2
          continue
        }
        if (!operand) {
          // A regular expression: up to its unescaped `/` outside a class, or the line's end.
          let at = index + 1
          let inClass = false
          while (at < length) {
            const c = text.charCodeAt(at)
            if (c === 10) break
            if (c === 92) {
              at += 2
              continue
            }
            if (c === 91) inClass = true
            else if (c === 93) inClass = false
            else if (c === 47 && !inClass) break
            at++
          }
          index = at + 1
          while (index < length && isWordCode(text.charCodeAt(index))) index++
          operand = true
          continue
        }
        nest(1)
        operand = false
        index++
        continue
      }
      case 60:
        if (next === 61 || next === 60) {
          // `<=` and `<<` compare and shift.
          nest(1)
          index += 2
        } else if (next === 47) {
          // `</` closes a JSX element.
          unnest()
          closingTag = true
          index += 2
        } else if (operand) {
          // Generic arguments, or a comparison over-counted until the level's boundary.
          angles[top()]! += LEVEL
          raise(LEVEL)
          index++
        } else {
          // A JSX element or a type assertion.
          nest()
          index++
        }
        operand = false
        continue
      case 62: {
        const level = top()
        if (closingTag) {
          closingTag = false
          operand = true
          index++
          continue
        }
        if (next === 61) {
          nest(1)
          index += 2
        } else {
          if (angles[level]! > 0) {
            angles[level]! -= LEVEL
            total -= LEVEL
          } else {
            // A comparison or a shift.
            nest(1)
          }
          index++
        }
        operand = false
        continue
      }
      case 61:
        if (next === 61) {
          nest(1)
          index += text.charCodeAt(index + 2) === 61 ? 3 : 2
        } else {
          // Assignment, or `=>`.
          nest()
          index += next === 62 ? 2 : 1
        }
        operand = false
        continue
      case 33:
        if (next === 61) {
          nest(1)
          index += text.charCodeAt(index + 2) === 61 ? 3 : 2
          operand = false
        } else if (operand) {
          // A non-null assertion: postfix, looped.
          nest(1)
          index++
        } else {
          nest()
          index++
        }
        continue
      case 43:
      case 45:
        if (next === code) {
          // `++`/`--`: prefix nests, postfix leaves an operand.
          if (!operand) nest()
          index += 2
          continue
        }
        nest(operand ? 1 : LEVEL)
        operand = false
        index++
        continue
      case 42:
        if (next === 42) {
          nest()
          index += 2
        } else {
          nest(1)
          index++
        }
        operand = false
        continue
      case 63:
        if (next === 63) {
          nest(1)
          index += 2
        } else if (next === 46 && !isDigit(text.charCodeAt(index + 2))) {
          // `?.`, a member access: looped.
          nest(1)
          index += 2
        } else {
          nest()
          index++
        }
        operand = false
        continue
      case 58:
      case 126:
        nest()
        operand = false
        index++
        continue
      case 46:
        // A member access loops; a spread (`...`) does not nest.
        if (next === 46) {
          index += 3
        } else {
          nest(1)
          index++
        }
        operand = false
        continue
      case 37:
      case 38:
      case 94:
      case 124:
        // `%`, `&`, `^`, `|` and their doubles.
        nest(1)
        operand = false
        index += next === code ? 2 : 1
        continue
      default:
        operand = false
        index++
    }
  }
  return Math.ceil(deepest / LEVEL)
}
