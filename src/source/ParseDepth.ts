/**
 * How deep oxc-parser would recurse on a TypeScript or JavaScript file, over-estimated in one
 * linear pass. The parser recurses natively and kills the process (a segmentation fault, not an
 * exception) a few thousand levels down, and brackets are not the only way down: `a = a = …`,
 * `c ? x : c ? x : …`, `else if` chains, labels, prefix operators, arrows, `new`, generic arguments,
 * JSX elements and conditional types each nest one level without any bracket.
 *
 * The estimate is the open brackets and JSX elements plus, at each, the nesting tokens seen since
 * that level's last expression or statement boundary: `;` (unless `else` or a `do`'s `while`
 * follows), `,`, a `case`, a block followed by a new statement, and a line break where a statement
 * must end (between two operands, or after `return`; code written without semicolons would
 * otherwise add up). Strings, comments, template and JSX text and regular expressions are skipped,
 * so a separator line of `=====` in a comment counts nothing. The parser loops over a chain of
 * binary operators, member accesses, calls or indexes rather than recursing, but the tree it builds
 * is as deep as the chain, and serialising that tree recurses: each such operator counts a
 * sixteenth of a level (a chain of 30,000 `+` serialised on a worker's 4 MB stack, one of 50,000
 * did not).
 */

/** The deepest estimate a file may reach and still be handed to the parser. */
export const MAX_PARSE_DEPTH = 1000

/** The estimate's unit is a sixteenth of a level, so that a looped operator can count as one. */
const LEVEL = 16

const NESTING_WORDS = new Set([
  "if", "else", "while", "for", "do", "with", "typeof", "void", "delete", "await", "yield", "new",
  "keyof", "infer", "extends", "readonly", "unique",
  // Not a way down by itself, but each nested `export namespace` or `export function` costs the
  // parser's stack about twice what a bare one does.
  "export"
])

/** Binary operators written as words: looped, like `+`. */
const LOOPED_WORDS = new Set(["in", "instanceof", "as", "satisfies"])

/** Words after which an expression, not an operator, comes next: a `/` there opens a regex. */
const EXPRESSION_BEFORE = new Set([
  ...NESTING_WORDS, ...LOOPED_WORDS, "return", "throw", "case", "of", "default",
  // Not operands yet: a line break after them does not end the statement.
  "function", "class"
])

/** Words that carry on the statement or expression a closing `}` was part of. */
const CONTINUATIONS = new Set([
  "else", "catch", "finally", "instanceof", "in", "of", "as", "satisfies", "extends", "implements"
])

/** Words a line break always ends a statement after (restricted productions). */
const ENDED_BY_LINE = new Set(["return", "break", "continue", "debugger"])

const HEADS = new Set(["if", "while", "for", "with"])

const isDigit = (code: number) => code >= 48 && code <= 57
const isLineEnd = (code: number) => code === 10 || code === 13 || code === 0x2028 || code === 0x2029
const isSpace = (code: number) =>
  code <= 32 || code === 0xa0 || code === 0xfeff || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000
const isWordCode = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isDigit(code) ||
  code === 95 || code === 36 || code === 92 || code === 35 || (code >= 128 && !isSpace(code))

/**
 * What the previous token leaves to the next: after `;`, a new statement unless the next word
 * carries the last one on; after a closing `}`, likewise, with more words that can.
 */
const Pending = { None: 0, Semicolon: 1, Brace: 2 } as const
type Pending = typeof Pending[keyof typeof Pending]

/**
 * What opened a level, and so what its closing bracket returns to: code (a bracket, or the
 * condition of `if`, `while`, `for` or `with`, whose `)` is followed by the statement's body); a
 * template's `${`, back to template text; a JSX element, in its tag or among its children, both
 * scanned as JSX; or a `{…}` inside a JSX tag or among its children, back to the tag or children.
 */
const Level = { Bracket: 0, Head: 1, Substitution: 2, Tag: 3, Children: 4, TagExpression: 5, ChildExpression: 6 } as const
type Level = typeof Level[keyof typeof Level]

/** Whether the parser reads JSX in a file at `path`: oxc-parser 0.159 does in `.jsx` and `.tsx` only. */
export const mayHoldJsx = (path: string): boolean => /\.[jt]sx$/.test(path)

/**
 * The estimate for `text`. `jsx`: the file may hold JSX (`.tsx`, `.jsx`), where a `<` that
 * begins an expression opens an element; in `.ts` it is a type assertion.
 */
export const parseDepth = (text: string, jsx = true): number => {
  const length = text.length
  // Per open level: nesting tokens since its last boundary, generic `<` still open, and ternary
  // `?` still waiting for their `:` (which then nests no further).
  const chains: Array<number> = [0]
  const angles: Array<number> = [0]
  const questions: Array<number> = [0]
  // `do` still waiting for its `while`, per level: that `while` carries the statement on.
  const dos: Array<number> = [0]
  const kinds: Array<Level> = [Level.Bracket]
  let total = 0
  let deepest = 0
  // The previous token ends an operand: a `/` after it divides, a `+` is binary, and a line break
  // before another operand ends the statement.
  let operand = false
  let pending: Pending = Pending.None
  let newline = false
  let afterHead = false
  let afterDot = false
  let restricted = false
  let lastWord = ""
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
  const boundary = () => {
    const level = top()
    total -= chains[level]! + angles[level]!
    chains[level] = 0
    angles[level] = 0
    questions[level] = 0
  }
  // Whether `word` carries on the statement before it: `if (a) x; else …`, `do x; while (a)`,
  // `} catch`; after a `;`, only `else` and a `do`'s `while` do.
  const carriesOn = (word: string | undefined, afterSemicolon: boolean) =>
    word !== undefined &&
    (word === "while" ? dos[top()]! > 0 : word === "else" || (!afterSemicolon && CONTINUATIONS.has(word)))
  // Settles what the previous tokens left open, before a token; `word` is the token if a word.
  const settle = (word: string | undefined, startsOperand: boolean) => {
    const ended = pending === Pending.Semicolon
      ? !carriesOn(word, true)
      : pending === Pending.Brace && word !== undefined && !carriesOn(word, false)
    if (ended) boundary()
    // A decorator's line break before `class` does not end it.
    if (newline && operand && !afterHead && startsOperand && !carriesOn(word, false) && word !== "class") boundary()
    else if (newline && restricted) boundary()
    pending = Pending.None
    restricted = false
    newline = false
    afterHead = false
  }
  const open = (kind: Level) => {
    chains.push(0)
    angles.push(0)
    questions.push(0)
    dos.push(0)
    kinds.push(kind)
    raise(LEVEL)
  }
  const close = (): Level => {
    const level = top()
    total -= LEVEL + chains[level]! + angles[level]!
    chains.pop()
    angles.pop()
    questions.pop()
    dos.pop()
    return kinds.pop()!
  }
  const skipLine = (from: number): number => {
    let at = from
    while (at < length && !isLineEnd(text.charCodeAt(at))) at++
    newline = true
    return at
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
  // JSX, while the innermost level is an element: its tag up to `>` (then its children) or `/>`,
  // its children's text up to a tag; a `{` hands back to code. Returns where code resumes.
  const jsxText = (from: number): number => {
    let at = from
    while (at < length) {
      const kind = kinds[top()]
      if (kind !== Level.Tag && kind !== Level.Children) {
        operand = true
        return at
      }
      const code = text.charCodeAt(at)
      if (code === 123) {
        open(kind === Level.Tag ? Level.TagExpression : Level.ChildExpression)
        operand = false
        return at + 1
      }
      if (kind === Level.Tag) {
        if (code === 34 || code === 39) {
          const end = text.indexOf(String.fromCharCode(code), at + 1)
          at = end === -1 ? length : end + 1
        } else if (code === 47 && text.charCodeAt(at + 1) === 62) {
          close()
          at += 2
        } else if (code === 62) {
          kinds[top()] = Level.Children
          at++
        } else if (code === 46) {
          // `<a.b.c>`: a member chain, looped.
          nest(1)
          at++
        } else {
          at++
        }
      } else if (code !== 60) {
        at++
      } else if (text.charCodeAt(at + 1) === 47) {
        const end = text.indexOf(">", at + 2)
        close()
        at = end === -1 ? length : end + 1
      } else {
        open(Level.Tag)
        at++
      }
    }
    return at
  }
  // A `<` that begins an expression in a JSX file: an element, unless a type parameter list
  // follows its name (`<T,>(x: T) => x`, `<T extends U>`).
  const elementAt = (from: number): boolean => {
    // A tag's name or a fragment's `>` follows `<` at once: `unique < 2` compares.
    const first = text.charCodeAt(from + 1)
    if (first === 62) return true
    if (!isWordCode(first) || isDigit(first)) return false
    // A tag's name may hold `.`, `-` and `:` (`<a.b>`, `<my-element>`, `<svg:path>`).
    const inName = (code: number) => isWordCode(code) || code === 46 || code === 45 || code === 58
    let at = from + 1
    while (at < length && inName(text.charCodeAt(at))) at++
    const name = text.slice(from + 1, at)
    if (name === "const") return false
    while (at < length && isSpace(text.charCodeAt(at))) at++
    const after = text.charCodeAt(at)
    // `<T,>`, `<T = X,>`, `<T extends U>`, `<T>(x: T) => x`: type parameters.
    if (after === 44 || after === 61 || (after === 62 && text.charCodeAt(at + 1) === 40)) return false
    return !(text.startsWith("extends", at) && !isWordCode(text.charCodeAt(at + 7)))
  }

  // `==`, `===`, `!=`, `!==` at `at`, a looped binary operator: the index after it.
  const equality = (at: number): number => {
    nest(1)
    return at + (text.charCodeAt(at + 2) === 61 ? 3 : 2)
  }

  while (index < length) {
    const code = text.charCodeAt(index)
    if (isSpace(code)) {
      if (isLineEnd(code)) newline = true
      index++
      continue
    }
    const next = text.charCodeAt(index + 1)
    // Comments are not tokens: they neither count nor settle a pending boundary.
    if (code === 47 && next === 47) {
      index = skipLine(index + 2)
      continue
    }
    if (code === 47 && next === 42) {
      const end = text.indexOf("*/", index + 2)
      const stop = end === -1 ? length : end + 2
      for (let at = index; at < stop; at++) {
        if (isLineEnd(text.charCodeAt(at))) {
          newline = true
          break
        }
      }
      index = stop
      continue
    }

    const property = afterDot
    afterDot = false
    if (isWordCode(code) && !isDigit(code)) {
      let end = index + 1
      while (end < length && isWordCode(text.charCodeAt(end))) end++
      const word = text.slice(index, end)
      index = end
      if (property) {
        // A property name (`m.default`, `a.in`): a name, whatever it spells.
        lastWord = ""
        operand = true
        continue
      }
      settle(word, true)
      // A `do`'s `while (…)` ends its statement; it heads no body.
      const endsDo = word === "while" && dos[top()]! > 0
      if (word === "do") dos[top()]! += 1
      else if (endsDo) dos[top()]! -= 1
      if (NESTING_WORDS.has(word)) nest()
      else if (LOOPED_WORDS.has(word)) nest(1)
      else if (word === "case" || word === "default") boundary()
      operand = !EXPRESSION_BEFORE.has(word)
      restricted = ENDED_BY_LINE.has(word)
      // `for await (`: the condition of a `for` still.
      if (endsDo) lastWord = ""
      else if (!(word === "await" && lastWord === "for")) lastWord = word
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
      // A string ends at its quote or, unterminated, at the line's end; `\` carries it past one.
      let at = index + 1
      while (at < length) {
        const c = text.charCodeAt(at)
        if (c === code || isLineEnd(c)) break
        if (c === 92) at += text.charCodeAt(at + 1) === 13 && text.charCodeAt(at + 2) === 10 ? 3 : 2
        else at++
      }
      index = at + 1
      operand = true
      continue
    }
    settle(undefined, false)

    switch (code) {
      case 96:
        // A tagged template after an operand loops, as a call does.
        if (operand) nest(1)
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
        // After a block or a condition a `/` opens a regex, most likely; read as a division, a
        // backtick in it would open a template that runs on for lines.
        operand = code !== 125
        if (chains.length === 1) continue
        const kind = close()
        if (kind === Level.Substitution) index = templateText(index)
        else if (kind === Level.TagExpression || kind === Level.ChildExpression) index = jsxText(index)
        else if (kind === Level.Head) {
          afterHead = true
          operand = false
        } else if (code === 125) pending = Pending.Brace
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
      case 46:
        // A member access loops; a spread (`...`) does not nest.
        if (next === 46) {
          index += 3
        } else {
          nest(1)
          afterDot = true
          index++
        }
        operand = false
        continue
      case 47: {
        if (!operand) {
          // A regular expression: up to its unescaped `/` outside a class, or the line's end.
          let at = index + 1
          let inClass = false
          while (at < length) {
            const c = text.charCodeAt(at)
            if (isLineEnd(c)) break
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
        } else if (operand) {
          // Generic arguments, or a comparison over-counted until the level's boundary.
          angles[top()]! += LEVEL
          raise(LEVEL)
          index++
        } else if (jsx && elementAt(index)) {
          open(Level.Tag)
          index = jsxText(index + 1)
          continue
        } else {
          // A type assertion or a type parameter list.
          nest()
          index++
        }
        operand = false
        continue
      case 62: {
        const level = top()
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
          index = equality(index)
        } else {
          // Assignment, or `=>`.
          nest()
          index += next === 62 ? 2 : 1
        }
        operand = false
        continue
      case 33:
        if (next === 61) {
          index = equality(index)
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
          afterDot = true
          index += 2
        } else {
          // A conditional: its `:` is then part of it.
          nest()
          questions[top()]! += 1
          index++
        }
        operand = false
        continue
      case 58: {
        // A conditional's `:`, or a label, a type annotation or a property: each may nest.
        const level = top()
        if (questions[level]! > 0) questions[level]! -= 1
        else nest()
        operand = false
        index++
        continue
      }
      case 126:
        nest()
        operand = false
        index++
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
