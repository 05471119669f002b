import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as Grammars from "./Grammars.ts"
import { LANGUAGES, languageOfPath } from "./Languages.ts"
import { type Outline, outlineOf } from "./Outline.ts"

const ROOT = join(import.meta.dirname, "../../test/fixtures/polyglot")

const outline = async (path: string, text = readFileSync(join(ROOT, path), "utf8")): Promise<Outline> => {
  const language = languageOfPath(path)!
  await Grammars.ready([language.grammar])
  const read = Grammars.withTree(language.grammar, text, (tree) => outlineOf(language, text, tree))
  assert.notStrictEqual(typeof read, "string", `${path}: ${String(read)}`)
  return read as Outline
}

/** `kind name lines exported|private`, with `: doc` when there is one. */
const declarations = (read: Outline) =>
  read.declarations.map((d) => `${d.kind} ${d.name} ${d.line}-${d.endLine} ${d.exported ? "exported" : "private"}${d.doc === undefined ? "" : `: ${d.doc}`}`)

const imports = (read: Outline) => read.imports.map((i) => `${i.kind} ${i.specifier} @${i.line}`)

/** Each fixture's outline as read by hand from the file. */
const EXPECTED: ReadonlyArray<{ path: string; declarations: ReadonlyArray<string>; imports: ReadonlyArray<string> }> = [
  {
    path: "py/billing/invoice.py",
    declarations: [
      "variable DEFAULT_CURRENCY 6-6 exported",
      "function reconcile_invoice_totals 9-12 exported: Sum the lines of an invoice and add the region's tax.",
      "class Invoice 15-22 exported: One invoice with its lines.",
      "function _private_helper 25-26 private"
    ],
    imports: ["imports os @2", "imports .tax @3", "imports billing.tax @4"]
  },
  {
    path: "go/cart/cart.go",
    declarations: [
      "struct Cart 11-13 exported: Cart is a list of items with quantities.",
      "struct Item 16-19 exported: Item is one product line.",
      "method Cart.Total 22-28 exported: Total prices every item of the cart.",
      "function describe 30-32 private"
    ],
    imports: ["imports fmt @4", "imports example.com/shop/price @4"]
  },
  {
    path: "rust/src/parser.rs",
    declarations: [
      "enum Token 3-6 exported: A token of the input.",
      "trait Describe 8-10 exported",
      "impl Describe for Token 12-16 exported",
      "function tokenize 19-23 exported: Splits text into tokens.",
      "struct Cursor 25-27 private"
    ],
    imports: []
  },
  {
    path: "rust/src/main.rs",
    declarations: ["function run 8-12 exported: Reads standard input and prints its tokens.", "function main 14-16 private"],
    imports: ["imports mod parser @2", "imports crate::parser::Token @4", "imports std::io @5"]
  },
  {
    path: "java/src/main/java/com/acme/App.java",
    declarations: ["class App 9-24 exported: The application entry point."],
    imports: ["imports com.acme.util.Strings @3", "imports java.util.List @4"]
  },
  {
    path: "kotlin/src/main/kotlin/com/acme/Main.kt",
    declarations: ["function greet 6-6 exported: Prints a greeting for the user.", "class Registry 8-10 exported", "function hidden 12-12 private"],
    imports: ["imports com.acme.model.User @3"]
  },
  {
    path: "csharp/Billing/Invoice.cs",
    declarations: [
      "class Invoice 7-18 exported: <summary>An invoice and its lines.</summary>",
      "interface ITaxPolicy 20-23 private",
      "enum Currency 25-25 exported"
    ],
    imports: ["imports System @1", "imports System.Collections.Generic @2"]
  },
  {
    path: "ruby/lib/shop/cart.rb",
    declarations: ["class Cart 6-19 exported: A shopper's cart."],
    imports: ["requires json @1", "requires ./price @2"]
  },
  {
    path: "php/src/Cart.php",
    declarations: ["class Cart 12-25 exported: A shopper's cart.", "function cart_count 27-30 exported"],
    imports: ["requires ./Price.php @5", "imports App\\Price @7"]
  },
  {
    path: "c/src/main.c",
    declarations: ["macro GREETING 4-4 exported", "type color 6-6 exported", "function main 8-11 exported"],
    imports: ["imports <stdio.h> @1", "imports util.h @2"]
  },
  {
    path: "c/src/util.h",
    declarations: ["function bounded_length 7-7 exported: The length of a string, counting at most max bytes.", "struct buffer 9-12 exported"],
    imports: ["imports <stddef.h> @4"]
  },
  {
    path: "cpp/src/engine.cpp",
    declarations: ["method Renderer::Renderer 7-7 exported", "method Renderer::draw 10-12 exported: Draws one frame.", "function frames_per_second 16-16 exported"],
    imports: ["imports engine.hpp @1", "imports <iostream> @3"]
  },
  {
    path: "swift/Sources/App/Shapes.swift",
    declarations: [
      "interface Shape 5-7 exported: A shape with an area.",
      "struct Circle 10-16 exported: A circle of a radius.",
      "class Canvas 18-24 exported",
      "enum Unit 26-28 exported",
      "class Recorder 31-33 exported",
      "impl extension Circle 36-38 exported",
      "impl extension Canvas: CustomStringConvertible 40-42 exported",
      "type Pair 45-45 exported: Two shapes of the same kind.",
      "variable defaultRadius 47-47 exported",
      "variable drawn 48-48 private",
      "function totalArea 51-53 exported: The sum of the shapes' areas.",
      "function reset 55-57 private"
    ],
    imports: ["imports Foundation @1", "imports Geometry @2"]
  },
  {
    path: "scripts/deploy.sh",
    declarations: ["function deploy 9-11 exported: Builds and uploads the bundle."],
    imports: ["requires ./lib.sh @5", "requires lib.sh @6"]
  }
]

describe("Outline", () => {
  for (const expected of EXPECTED) {
    it(`${expected.path} - declarations with kind, lines, exported-ness and doc; imports as written`, async () => {
      const read = await outline(expected.path)
      assert.deepStrictEqual(declarations(read), expected.declarations)
      assert.deepStrictEqual(imports(read), expected.imports)
      assert.isUndefined(read.firstErrorLine)
    }, 30_000)
  }

  it("every fixture's units cover every character that is not white space, in order, without overlap", async () => {
    for (const expected of EXPECTED) {
      const text = readFileSync(join(ROOT, expected.path), "utf8")
      const read = await outline(expected.path, text)
      let covered = 0
      let uncovered = ""
      for (const unit of read.units) {
        assert.isAtLeast(unit.start, covered, `${expected.path}: units overlap`)
        uncovered += text.slice(covered, unit.start)
        covered = unit.end
        const children = unit.children?.() ?? []
        for (let i = 1; i < children.length; i++) assert.isAtLeast(children[i]!.start, children[i - 1]!.end, `${expected.path}: members overlap`)
      }
      uncovered += text.slice(covered)
      assert.match(uncovered, /^\s*$/, `${expected.path}: text outside every unit`)
    }
  }, 30_000)

  it("a declaration's unit starts at the comment above it and carries its name; a class's members split it", async () => {
    const text = readFileSync(join(ROOT, "py/billing/invoice.py"), "utf8")
    const read = await outline("py/billing/invoice.py", text)
    const invoice = read.units.find((unit) => unit.symbols.includes("Invoice"))!
    assert.isTrue(invoice.declaration)
    assert.isTrue(text.slice(invoice.start).startsWith("class Invoice:"))
    assert.deepStrictEqual(invoice.children!().map((span) => text.slice(span.start, span.end).trim().split("\n")[0]), [
      "\"\"\"One invoice with its lines.\"\"\"",
      "def __init__(self, lines):",
      "def total(self, region):"
    ])
    const java = readFileSync(join(ROOT, "java/src/main/java/com/acme/App.java"), "utf8")
    const app = (await outline("java/src/main/java/com/acme/App.java", java)).units.find((unit) => unit.declaration)!
    assert.isTrue(java.slice(app.start).startsWith("/**\n * The application entry point."))
  }, 30_000)

  it("a block comment the climb cannot take whole stays whole before the declaration: no text is in two units", async () => {
    const text = "#include \"a.h\"\n/*\n * Copyright\n   Licensed under MIT\n */\nint f(void) { return 1; }\ntypedef int (*cb)(int);\ntypedef struct { int x; } *P;\n"
    const read = await outline("a.c", text)
    for (let i = 1; i < read.units.length; i++) assert.isAtLeast(read.units[i]!.start, read.units[i - 1]!.end)
    const f = read.units.find((unit) => unit.symbols.includes("f"))!
    assert.strictEqual(text.slice(f.start, f.end), "int f(void) { return 1; }")
    // A typedef is named by its declarator's identifier, through pointers and functions.
    assert.deepStrictEqual(read.declarations.map((d) => d.name), ["f", "cb", "P"])
  }, 30_000)

  it("a syntax error gives the first line it is on, and the declarations around it", async () => {
    const read = await outline("broken.py", "def good():\n    return 1\n\ndef broken(:\n    pass\n\nclass After:\n    pass\n")
    assert.strictEqual(read.firstErrorLine, 4)
    assert.include(read.declarations.map((d) => d.name), "good")
    assert.include(read.declarations.map((d) => d.name), "After")
  }, 30_000)

  it("a parse past its step bound is given up, and a grammar never loaded is said to be so", async () => {
    const python = languageOfPath("x.py")!
    await Grammars.ready([python.grammar])
    const long = "def f(x):\n    return x\n".repeat(50_000)
    assert.strictEqual(Grammars.withTree(python.grammar, long, () => "read", 2), "gave-up")
    assert.strictEqual(Grammars.withTree(python.grammar, long, () => "read"), "read")
    assert.strictEqual(Grammars.withTree("tree-sitter-wasms/out/tree-sitter-elm.wasm", "x", () => "read"), "not-loaded")
  }, 30_000)

  it("the Swift grammar loads without tier-up, so a process started without --liftoff-only lives through a hot lexer", () => {
    const swift = languageOfPath("Sources/App/Big.swift")!
    assert.isTrue(Grammars.WITHOUT_TIER_UP.has(swift.grammar))
    // A plain Node, as a library user's process is: with tier-up, 200 parses of this file abort it
    // (V8's "Zone" out-of-memory) after passing 1 GB; without, it stays under 100 MB.
    const script = `
      import * as Grammars from ${JSON.stringify(join(import.meta.dirname, "Grammars.ts"))}
      const grammar = ${JSON.stringify(swift.grammar)}
      await Grammars.ready([grammar])
      const text = Array.from({ length: 400 }, (_, i) => "/// Number " + i + ".\\npublic struct S" + i + ": Codable {\\n    let value = " + i + "\\n}\\n").join("\\n")
      const start = process.memoryUsage().rss
      for (let pass = 0; pass < 200; pass++) Grammars.withTree(grammar, text, (tree) => tree.rootNode.childCount)
      process.stdout.write(JSON.stringify({ grown: process.memoryUsage().rss - start }))
    `
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 })
    assert.strictEqual(run.status, 0, run.stderr.slice(0, 2_000))
    assert.isBelow(JSON.parse(run.stdout).grown, 300 * 1024 * 1024)
  }, 150_000)

  it("a grammar that cannot be loaded rejects ready, and is tried again by the next call", async () => {
    const missing = "tree-sitter-wasms/out/tree-sitter-missing.wasm"
    let failures = 0
    for (let i = 0; i < 2; i++) await Grammars.ready([missing]).catch(() => failures++)
    assert.strictEqual(failures, 2)
    assert.isFalse(Grammars.isReady(missing))
  }, 30_000)

  it("every registered language loads its grammar and reads a file of its own", async () => {
    await Grammars.ready(LANGUAGES.map((language) => language.grammar))
    for (const language of LANGUAGES) assert.isTrue(Grammars.isReady(language.grammar), language.id)
    const ids = new Set(EXPECTED.map((expected) => languageOfPath(expected.path)!.id))
    assert.deepStrictEqual(LANGUAGES.map((language) => language.id).filter((id) => !ids.has(id)), [], "a language without a fixture")
  }, 60_000)
})
