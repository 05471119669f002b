import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as AnalyzerPoolNode from "../../layers/node/AnalyzerPoolNode.ts"
import { MIN_POOLED_BATCH } from "../../layers/node/AnalyzerPoolNode.ts"
import { POOLED_MODULE_BATCH } from "../../src/discovery/Discover.ts"
import { AnalyzerPool } from "../../src/ports/AnalyzerPool.ts"
import { serialize } from "../../src/discovery/Assemble.ts"
import type { ModuleEntity } from "../../src/domain/Snapshot.ts"
import { languageOfPath } from "../../src/languages/Languages.ts"
import * as UnitStash from "../../src/languages/UnitStash.ts"
import { fixture, notContains, readTree, relationLines, scanDisk, scanMemory } from "./support.ts"

const ROOT = fixture("polyglot")

describe("discovery of the languages read with tree-sitter", () => {
  it.effect("polyglot - every language's imports resolve to the files they name, by its own rules", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(ROOT)
      assert.deepStrictEqual(relationLines(snapshot, (relation) => notContains(relation) && !relation.to.startsWith("external:")), [
        "imports module:c/src/main.c -> module:c/src/util.h",
        "imports module:c/src/util.c -> module:c/src/util.h",
        "imports module:cpp/src/engine.cpp -> module:cpp/src/engine.hpp",
        "imports module:go/cart/cart.go -> module:go/price/price.go",
        "imports module:java/src/main/java/com/acme/App.java -> module:java/src/main/java/com/acme/util/Strings.java",
        "imports module:kotlin/src/main/kotlin/com/acme/Main.kt -> module:kotlin/src/main/kotlin/com/acme/model/User.kt",
        "requires module:php/src/Cart.php -> module:php/src/Price.php",
        "imports module:py/billing/__init__.py -> module:py/billing/invoice.py",
        "imports module:py/billing/invoice.py -> module:py/billing/tax.py",
        "requires module:ruby/lib/shop/cart.rb -> module:ruby/lib/shop/price.rb",
        "imports module:rust/src/main.rs -> module:rust/src/parser.rs",
        "requires module:scripts/deploy.sh -> module:scripts/lib.sh"
      ])
      // Packages and standard libraries outside the tree are external; `from . import tax` and `from billing.tax import …` are one relation.
      assert.includeMembers(relationLines(snapshot, (relation) => relation.to.startsWith("external:")), [
        "imports module:py/billing/invoice.py -> external:os",
        "imports module:go/cart/cart.go -> external:fmt",
        "imports module:rust/src/main.rs -> external:std::io",
        "imports module:c/src/main.c -> external:<stdio.h>",
        "imports module:csharp/Billing/Invoice.cs -> external:System",
        "imports module:swift/Sources/App/Shapes.swift -> external:Foundation",
        "requires module:ruby/lib/shop/cart.rb -> external:json"
      ])
      const tax = snapshot.relations.find((relation) => relation.kind === "imports" && relation.to === "module:py/billing/tax.py")!
      assert.deepStrictEqual(tax.evidence.map((item) => [item.line, item.text]), [[3, ".tax"], [4, "billing.tax"]])
      // go.mod is the Go module's manifest: its package contains the module's files.
      assert.includeMembers(relationLines(snapshot, (relation) => relation.from === "package:example.com/shop"), [
        "contains package:example.com/shop -> module:go/cart/cart.go",
        "contains package:example.com/shop -> module:go/price/price.go"
      ])
    }), 60_000) // the first scan loads twelve grammars

  it.effect("polyglot - a module's language, declarations and exports come from its outline", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanDisk(ROOT)
      const modules = new Map(snapshot.entities.filter((entity): entity is ModuleEntity => entity.kind === "module").map((entity) => [entity.path, entity]))
      const invoice = modules.get("py/billing/invoice.py")!
      assert.strictEqual(invoice.language, "python")
      assert.deepStrictEqual(invoice.declarations.map((d) => `${d.kind} ${d.name} ${d.line}`), [
        "variable DEFAULT_CURRENCY 6",
        "function reconcile_invoice_totals 9",
        "class Invoice 15",
        "function _private_helper 25"
      ])
      assert.deepStrictEqual(invoice.exports.map((e) => e.name), ["DEFAULT_CURRENCY", "Invoice", "reconcile_invoice_totals"])
      assert.deepStrictEqual(
        [...modules.values()].map((module) => `${module.path} ${module.language}`).filter((line) => !line.includes(".py ")),
        [
          "c/src/main.c c",
          "c/src/util.c c",
          "c/src/util.h cpp",
          "cpp/src/engine.cpp cpp",
          "cpp/src/engine.hpp cpp",
          "csharp/Billing/Invoice.cs csharp",
          "go/cart/cart.go go",
          "go/price/price.go go",
          "java/src/main/java/com/acme/App.java java",
          "java/src/main/java/com/acme/util/Strings.java java",
          "kotlin/src/main/kotlin/com/acme/Main.kt kotlin",
          "kotlin/src/main/kotlin/com/acme/model/User.kt kotlin",
          "php/src/Cart.php php",
          "php/src/Price.php php",
          "ruby/lib/shop/cart.rb ruby",
          "ruby/lib/shop/price.rb ruby",
          "rust/Cargo.toml text",
          "rust/src/main.rs rust",
          "rust/src/parser.rs rust",
          "scripts/deploy.sh bash",
          "scripts/lib.sh bash",
          "swift/Sources/App/Shapes.swift swift"
        ]
      )
      assert.isFalse(snapshot.coverage.some((entry) => entry.status === "failed" || entry.status === "partial"))
      // A lockfile is generated: counted, not read.
      const unanalysed = snapshot.coverage.find((entry) => entry.scope === "unanalysed-files")
      assert.strictEqual(unanalysed?.reason, "1 listed files have no analyzer: go.sum 1")
      const shapes = modules.get("swift/Sources/App/Shapes.swift")!
      assert.deepStrictEqual(shapes.exports.map((e) => e.name), [
        "Canvas", "Circle", "Pair", "Recorder", "Shape", "Unit", "defaultRadius", "extension Canvas: CustomStringConvertible", "extension Circle", "totalArea"
      ])
    }), 60_000)

  it.effect("a file with a syntax error keeps what parses and says where it broke; the scan goes on", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanMemory({
        "app/broken.py": "def good():\n    return 1\n\ndef broken(:\n    pass\n",
        "app/fine.go": "package app\n\nfunc Fine() {}\n"
      })
      const broken = snapshot.entities.find((entity) => entity.id === "module:app/broken.py") as ModuleEntity
      assert.include(broken.declarations.map((d) => d.name), "good")
      assert.deepInclude(snapshot.coverage, { analyzer: "python", scope: "app/broken.py", status: "partial", reason: "syntax error at line 4; declarations inside the error are missing" })
      const fine = snapshot.entities.find((entity) => entity.id === "module:app/fine.go") as ModuleEntity
      assert.deepStrictEqual(fine.declarations.map((d) => d.name), ["Fine"])
    }), 60_000)

  it.effect("polyglot - the snapshot is the same bytes however the tree lists its files", () =>
    Effect.gen(function*() {
      const files = readTree(ROOT)
      const forward = yield* scanMemory(files)
      const reversed = yield* scanMemory(Object.fromEntries(Object.entries(files).reverse()))
      assert.strictEqual(serialize(reversed), serialize(forward))
      // Keeping the parsed units for a chunker changes nothing in the snapshot.
      const units = UnitStash.make()
      assert.strictEqual(serialize(yield* scanMemory(files, { units })), serialize(forward))
      assert.isAbove(units.heldBytes(), 0)
    }), 60_000)

  it.effect("polyglot - files read with tree-sitter, shared with worker threads in batches, give the bytes one thread gives", () =>
    Effect.gen(function*() {
      // Enough copies of the fixture that its grammar files fill more than one pooled batch.
      const files = readTree(ROOT)
      const copies = Math.ceil((POOLED_MODULE_BATCH + MIN_POOLED_BATCH) / Object.keys(files).length)
      const tree = Object.fromEntries(Array.from({ length: copies }, (_, copy) => Object.entries(files).map(([path, bytes]) => [`copy-${copy}/${path}`, bytes] as const)).flat())
      const aloneUnits = UnitStash.make()
      const sharedUnits = UnitStash.make()
      const alone = yield* scanMemory(tree, { units: aloneUnits })
      const shared = yield* scanMemory(tree, { units: sharedUnits }).pipe(Effect.provide(Layer.succeed(AnalyzerPool, AnalyzerPoolNode.make({ workers: 1 }))))
      assert.strictEqual(serialize(shared), serialize(alone))
      const parsed = alone.entities.filter((entity): entity is ModuleEntity => entity.kind === "module" && entity.language === "python" && entity.declarations.length > 0)
      assert.isAbove(parsed.length, copies)
      // Each file read with tree-sitter leaves its units under the hash of the bytes parsed, the same from a worker as from this thread.
      const grammarModules = alone.entities.filter((entity): entity is ModuleEntity => entity.kind === "module" && languageOfPath(entity.path) !== undefined)
      assert.isAbove(grammarModules.length, POOLED_MODULE_BATCH)
      for (const module of grammarModules) {
        const hash = module.evidence[0]!.contentHash!
        const mine = aloneUnits.take(module.path, hash)
        assert.isDefined(mine, module.path)
        assert.deepStrictEqual(sharedUnits.take(module.path, hash), mine, module.path)
      }
      assert.strictEqual(aloneUnits.heldBytes(), 0)
    }), 120_000)
})
