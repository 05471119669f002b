import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { repository, repositorySources } from "../../test/support/RepositorySources.ts"
import { parseModule, parseModuleAlone } from "../discovery/OxcModule.ts"
import { MAX_PARSE_DEPTH, mayHoldJsx, parseDepth } from "./ParseDepth.ts"

/** Ways down the parser's stack without brackets (and two with), each `n` levels deep. */
const CHAINS: Readonly<Record<string, (n: number) => string>> = {
  assignments: (n) => `${"a = ".repeat(n)}1\n`,
  "assignments, one a line": (n) => `${"a =\n".repeat(n)}1\n`,
  ternaries: (n) => `x = ${"c ? 1 : ".repeat(n)}2\n`,
  "ternaries, leading operators": (n) => `x = ${"c\n  ? 1\n  : ".repeat(n)}2\n`,
  "else if, braced": (n) => `if (a) {}${" else if (a) {}".repeat(n)}\n`,
  "else if, bare": (n) => `if (a) x;${" else if (a) x;".repeat(n)}\n`,
  "else if, no semicolons": (n) => `if (a) x\n${"else if (a) x\n".repeat(n)}`,
  "nested if, one a line": (n) => `${"if (a)\n".repeat(n)}x()\n`,
  labels: (n) => `${Array.from({ length: n }, (_, i) => `l${i}:\n`).join("")}x()\n`,
  arrows: (n) => `f = ${"x => ".repeat(n)}1\n`,
  "new": (n) => `x = ${"new ".repeat(n)}A\n`,
  "prefix operators": (n) => `x = ${"!-~+".repeat(Math.ceil(n / 4))}1\n`,
  "typeof and void": (n) => `x = ${"typeof void ".repeat(Math.ceil(n / 2))}1\n`,
  "await": (n) => `async function f() { return ${"await ".repeat(n)}1 }\n`,
  exponents: (n) => `x = ${"a ** ".repeat(n)}1\n`,
  "conditional types": (n) => `type T = ${"A extends B ? C : ".repeat(n)}D\n`,
  "generic arguments": (n) => `type T = ${"A<".repeat(n)}B${">".repeat(n)}\n`,
  "JSX elements": (n) => `x = ${"<a>".repeat(n)}${"</a>".repeat(n)}\n`,
  "nested functions": (n) => `${"function f() {".repeat(n)}${"}".repeat(n)}\n`,
  "template substitutions": (n) => `x = ${"`${".repeat(n)}1${"}`".repeat(n)}\n`,
  "a chain of +": (n) => `x = ${"a + ".repeat(n * 16)}1\n`,
  "a chain of members": (n) => `x = a${".b".repeat(n * 16)}\n`,
  "a chain of in": (n) => `x = a${" in a".repeat(n * 16)}\n`,
  "tagged templates": (n) => `x = a${"``".repeat(n * 16)}\n`,
  // Found by review: places a reading of the text could reset or skip what the parser nests.
  "JSX elements, text on lines of its own": (n) => `x = (\n${"<div>\nHello\nworld\n".repeat(n)}${"</div>\n".repeat(n)})\n`,
  "JSX elements, attributes on lines of their own": (n) => `x = (\n${"<div\n  a=\"1\"\n>\n".repeat(n)}${"</div>\n".repeat(n)})\n`,
  "JSX elements, an apostrophe in the text": (n) => `x = (\n${"<p>Don't\n".repeat(n)}${"</p>\n".repeat(n)})\n`,
  "a property named like a keyword": (n) => `x = ${"m.default = ".repeat(n)}1\n`,
  "else if, a do-while body": (n) => `if (a) do x; while (a)\n${"else if (a) do x; while (a)\n".repeat(n)}`,
  "a regex with a backtick after a condition": (n) => `if (a) /\`/.test(s)\nx = ${"(".repeat(n)}1${")".repeat(n)}\n`,
  "a comment ended by a carriage return": (n) => `// c\rx = ${"a = ".repeat(n)}1\n`,
  "keywords apart by a wide space": (n) => `x = ${"typeof\u2003".repeat(n)}1\n`,
  "for await, one a line": (n) => `async function f() {\n${"for await (const a of b)\n".repeat(n)}x()\n}\n`,
  "ternaries, a function expression broken over lines": (n) => `x = ${"c ? function\nf() {} : ".repeat(n)}1\n`,
  "a string continued over CRLF": (n) => `x = "a\\\r\n" + ${"(".repeat(n)}1${")".repeat(n)}\r\n`,
  "JSX file, a generic function type before the nesting": (n) => `type F = <T>(x: T) => T\nexport const v = ${"(".repeat(n)}1${")".repeat(n)}\n`,
  "JSX file, a const type parameter before the nesting": (n) => `const id = <const T,>(x: T) => x\nexport const v = ${"(".repeat(n)}1${")".repeat(n)}\n`,
  "JSX file, a comparison with a keyword-like name before the nesting": (n) => `const unique = 1\nif (unique < 2) warn()\nexport const v = ${"(".repeat(n)}1${")".repeat(n)}\n`,
  "nested exported namespaces": (n) => `${"export namespace a {\n".repeat(n)}${"}\n".repeat(n)}`,
  "ternaries, a decorated class broken over lines": (n) => `x = ${"c ? @d\nclass {} : ".repeat(n)}1\n`
}

const pathOf = (name: string) => (name.startsWith("JSX") ? "deep.tsx" : "deep.ts")

const deepestUnder = (make: (n: number) => string, jsx: boolean): number => {
  let low = 1
  let high = 4 * MAX_PARSE_DEPTH
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (parseDepth(make(middle), jsx) <= MAX_PARSE_DEPTH) low = middle
    else high = middle - 1
  }
  return low
}

describe("ParseDepth", () => {
  it("counts every way down at least a level each, so twice the limit is refused", () => {
    for (const [name, make] of Object.entries(CHAINS)) {
      assert.isAbove(parseDepth(make(2 * MAX_PARSE_DEPTH), mayHoldJsx(pathOf(name))), MAX_PARSE_DEPTH, name)
    }
  }, 30_000) // measures texts nested twice as deep as the limit

  it("lets through nothing the parser cannot take: the deepest text under the limit parses in both modes", () => {
    for (const [name, make] of Object.entries(CHAINS)) {
      const path = pathOf(name)
      const text = make(deepestUnder(make, mayHoldJsx(path)))
      assert.deepStrictEqual(parseModule(path, text).errors, [], name)
      assert.deepStrictEqual(parseModuleAlone(path, text).errors, [], name)
    }
  }, 60_000) // parses texts at the nesting limit in both modes

  it("keeps real code far under the limit: every source file of this repository", () => {
    let deepest = 0
    for (const file of repositorySources()) deepest = Math.max(deepest, parseDepth(readFileSync(join(repository, file), "utf8")))
    assert.isAtLeast(deepest, 5)
    assert.isBelow(deepest, MAX_PARSE_DEPTH / 10)
  }, 60_000) // measures every source file of the repository

  it("counts nothing in comments, strings, template text or regular expressions", () => {
    const noise = "=?:!(<[{".repeat(2_000)
    const texts = [
      `// ${noise}\nx = 1\n`,
      `/* ${noise} */ x = 1\n`,
      `x = "${noise}"\n`,
      `x = '${noise}'\n`,
      `x = \`${noise}\`\n`,
      `x = /${noise.replaceAll("[", "\\[")}/g\n`
    ]
    for (const text of texts) assert.isAtMost(parseDepth(text), 2, text.slice(0, 12))
  })

  it("ends a statement where the language does: semicolons, commas, line breaks between operands, blocks", () => {
    // Five thousand statements in a row nest no deeper than one.
    const statements = [
      "const a = b ? c : d;\n",
      "export const a = b ? c : d\n",
      "type A = B extends C ? D : E\n",
      "a = 1, ",
      "if (a) { b() }\n",
      "if (a) { b() } else { c() }\n",
      "if (a) return b\n",
      "case 1: ",
      "  key: value,\n",
      "x = <a>{b}</a>\n",
      "if (!a) return\n",
      "while (s[i] === \" \") { i++ }\n",
      "while (a) a--;\n",
      "do x(); while (a)\n",
      "x = c ? 1 : 2\n"
    ]
    for (const statement of statements) {
      assert.strictEqual(parseDepth(statement.repeat(5_000)), parseDepth(statement), statement)
    }
  }, 30_000) // measures fifteen texts of five thousand statements

  it("reads JSX only where the parser does: an element in .tsx, a type assertion in .ts", () => {
    const assertions = "x = <T>a;\n".repeat(5_000)
    assert.strictEqual(parseDepth(assertions, false), parseDepth("x = <T>a;\n", false))
    assert.isTrue(mayHoldJsx("view.tsx") && mayHoldJsx("view.jsx"))
    assert.isFalse(mayHoldJsx("a.ts") || mayHoldJsx("a.d.ts") || mayHoldJsx("a.mts") || mayHoldJsx("old.js") || mayHoldJsx("m.mjs"))
    // A type parameter list in .tsx is not an element.
    const generics = "const f = <T,>(x: T) => x\nconst g = <T extends U>(x: T) => x\n"
    assert.strictEqual(parseDepth(generics.repeat(2_000)), parseDepth(generics))
  })

  it("reads the brackets of a template's substitutions, and returns to its text after them", () => {
    assert.strictEqual(parseDepth("x = `${a}`"), parseDepth("x = (a)"))
    assert.strictEqual(parseDepth("x = `${ { a: `${ (b) }` } }`"), parseDepth("x = ({ a: ((b)) })"))
    assert.isAtMost(parseDepth(`x = \`\${a}${"((((".repeat(1_000)}\`\n`), 2)
  })

  it("reads any text, however broken, in one pass without throwing", () => {
    for (const text of ["", ")))]]}}}", "`${", "'unterminated\nx = 1", "/* open", "a".repeat(50_000), "検索".repeat(20_000), "<|endoftext|>"]) {
      assert.isAtLeast(parseDepth(text), 0)
    }
  })
})
