import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { grammarAnalyzer } from "../../discovery/GrammarAnalyzer.ts"
import * as Grammars from "../../languages/Grammars.ts"
import { languageOfPath } from "../../languages/Languages.ts"
import { chunkFile } from "./ChunkFile.ts"
import { defaults } from "./ChunkOptions.ts"
import { chunkWithGrammar } from "./GrammarChunker.ts"

const ROOT = join(import.meta.dirname, "../../../test/fixtures/polyglot")
const read = (path: string) => readFileSync(join(ROOT, path), "utf8")
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).sort().flatMap((name) => statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)])

describe("chunkWithGrammar", () => {
  it.effect("chunkFile - a Python file gives one chunk per top-level declaration, headed by path and name, and a module chunk", () =>
    Effect.gen(function*() {
      const chunks = yield* chunkFile({ path: "py/billing/invoice.py", text: read("py/billing/invoice.py") })
      assert.deepStrictEqual(chunks.map((chunk) => [chunk.text.split("\n")[0], chunk.lineStart, chunk.lineEnd, chunk.symbols.join(",")]), [
        ["py/billing/invoice.py", 1, 4, ""],
        ["py/billing/invoice.py > DEFAULT_CURRENCY", 6, 6, "DEFAULT_CURRENCY"],
        ["py/billing/invoice.py > reconcile_invoice_totals", 9, 12, "reconcile_invoice_totals"],
        ["py/billing/invoice.py > Invoice", 15, 22, "Invoice"],
        ["py/billing/invoice.py > _private_helper", 25, 26, "_private_helper"]
      ])
      assert.isTrue(chunks.every((chunk) => chunk.noteType === "code"))
    }).pipe(Effect.provide(Digest.layerWebCrypto)), 30_000)

  it("a class over the target splits between its members, each piece headed by the class", async () => {
    const language = languageOfPath("x.java")!
    await Grammars.ready([language.grammar])
    const text = read("java/src/main/java/com/acme/App.java")
    const drafts = chunkWithGrammar(language, "App.java", text, { ...defaults, targetTokens: 200 })!
    const app = drafts.filter((draft) => draft.symbols.includes("App"))
    assert.isAbove(app.length, 1)
    assert.isTrue(app.every((draft) => draft.text.startsWith("App.java > App\n")))
    assert.include(app.map((draft) => draft.body).join("\n"), "public String greetAll()")
    // Nothing of the class is lost in the split.
    for (const line of text.split("\n").slice(8, 24).map((l) => l.trim()).filter((l) => l !== "")) {
      assert.isTrue(app.some((draft) => draft.body.includes(line)), line)
    }
  }, 30_000)

  it("a Swift type over the target splits between its members, each piece headed by the type", async () => {
    const language = languageOfPath("x.swift")!
    await Grammars.ready([language.grammar])
    const text = read("swift/Sources/App/Shapes.swift")
    const drafts = chunkWithGrammar(language, "Shapes.swift", text, { ...defaults, targetTokens: 100 })!
    const circle = drafts.filter((draft) => draft.symbols.includes("Circle"))
    assert.isAbove(circle.length, 1)
    assert.isTrue(circle.every((draft) => draft.text.startsWith("Shapes.swift > Circle\n")))
    for (const line of text.split("\n").slice(8, 16).map((l) => l.trim()).filter((l) => l !== "")) {
      assert.isTrue(circle.some((draft) => draft.body.includes(line)), line)
    }
    assert.isTrue(drafts.some((draft) => draft.text.startsWith("Shapes.swift > extension Canvas: CustomStringConvertible\n")))
  }, 30_000)

  it("a grammar that cannot be loaded leaves the file to line windows", async () => {
    const python = languageOfPath("x.py")!
    const missing = { ...python, grammar: "tree-sitter-wasms/out/tree-sitter-missing.wasm" }
    assert.isUndefined(chunkWithGrammar(missing, "x.py", "def f():\n    pass\n", defaults))
    const chunks = await Effect.runPromise(chunkFile({ path: "tools/x.py", text: "def f():\n    pass\n" }).pipe(Effect.provide(Digest.layerWebCrypto)))
    assert.strictEqual(chunks[0]!.text.split("\n")[0], "tools/x.py > f")
  }, 30_000)

  it.effect("chunkFile - units from the analyzer's parse give every fixture the chunks a parse of its own gives; units of another text are not used", () =>
    Effect.gen(function*() {
      const files = filesUnder(ROOT).flatMap((file) => {
        const path = relative(ROOT, file)
        const language = languageOfPath(path)
        return language === undefined ? [] : [{ path, language, text: readFileSync(file, "utf8") }]
      })
      yield* Effect.promise(() => Grammars.ready(new Set(files.map(({ language }) => language.grammar))))
      let used = 0
      for (const { language, path, text } of files) {
        const { units } = grammarAnalyzer(language).analyze(path, text)
        assert.isDefined(units, path)
        const small = { targetTokens: 64 }
        const parsed = yield* chunkFile({ path, text }, small)
        assert.deepStrictEqual(yield* chunkFile({ path, text, units: units! }, small), parsed, path)
        used++
      }
      assert.isAbove(used, 20)
      // Units of a text of another length would cut this one wrong: the file is parsed instead.
      const text = read("py/billing/invoice.py")
      const { units } = grammarAnalyzer(languageOfPath("x.py")!).analyze("x.py", "def f():\n    pass\n")
      assert.deepStrictEqual(
        yield* chunkFile({ path: "py/billing/invoice.py", text, units: units! }),
        yield* chunkFile({ path: "py/billing/invoice.py", text })
      )
    }).pipe(Effect.provide(Digest.layerWebCrypto)), 60_000)
})
