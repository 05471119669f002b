import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

const repository = join(import.meta.dirname, "..", "..")
const manifest = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; import: string; default: string }>
  files: ReadonlyArray<string>
  bin: Record<string, string>
}

describe("package entry point", () => {
  it("the root export carries the headline API: both APIs, the layer sets, the pack and its codec, the errors", async () => {
    const cairn = await import("cairn")
    for (const name of ["openCairn", "createRecall", "recall", "indexRepository", "embedded", "reference"] as const) {
      assert.isFunction(cairn[name], name)
    }
    assert.isFunction(cairn.ContextPack.serialise)
    assert.isFunction(cairn.ContextPack.decodeWire)
    for (const error of [cairn.InvalidInput, cairn.DiscoveryError, cairn.DatabaseError, cairn.IndexWriteError, cairn.VectorIndexError]) {
      assert.isFunction(error)
    }
    assert.strictEqual(new cairn.InvalidInput({ subject: "query", field: "budgetTokens", detail: "must be >= 0" })._tag, "InvalidInput")
    assert.isFunction(cairn.Pack.makePack)
    assert.strictEqual(cairn.TokenCounterDefault.counter.count("hello world"), 2)
    assert.strictEqual(cairn.RetrievalConfig.defaults.reportReserveTokens, 512)
  }, 30_000) // the first import of the package loads all of it

  it("the subpaths: ports, layers and the bench runner", async () => {
    const ports = await import("cairn/ports")
    assert.isDefined(ports.LexicalIndex.LexicalIndex)
    assert.isDefined(ports.ChunkerPool.ChunkerPool)
    const layers = await import("cairn/layers")
    assert.isFunction(layers.Embedded.embedded)
    assert.isDefined(layers.LexicalIndexSqlite.layer)
    assert.isFunction(layers.EmbedderHttp.make)
    assert.isFunction(layers.RerankerHttp.layer)
    const evaluation = await import("cairn/eval")
    assert.isFunction(evaluation.Run.runBench)
  }, 30_000) // loads the layers and the bench runner

  it("every export names a build file compiled from a source that exists, with its declarations, inside `files`", () => {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (subpath === "./package.json") continue
      const targets = typeof target === "string" ? [target] : [target.types, target.import, target.default]
      for (const file of targets) {
        assert.match(file, /^\.\/dist\//, `${subpath} points into dist/`)
        assert.isTrue(manifest.files.includes("dist"), "dist/ is shipped")
        const source = file.replace(/^\.\/dist\//, "").replace(/\.d\.ts$|\.js$/, ".ts").replace("*", "chunker")
        assert.isTrue(existsSync(join(repository, source)), `${subpath}: ${source} exists`)
      }
      if (typeof target !== "string") assert.strictEqual(target.types.replace(/\.d\.ts$/, ".js"), target.import)
    }
    for (const bin of Object.values(manifest.bin)) assert.isTrue(manifest.files.includes(bin), `${bin} is shipped`)
  })
})
