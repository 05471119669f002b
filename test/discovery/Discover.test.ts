import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { createHash } from "node:crypto"
import * as Digest from "effect/crypto/Digest"
import * as SourceTreeMemory from "../../layers/reference/SourceTreeMemory.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { body, serialize } from "../../src/discovery/Assemble.ts"
import { discover, discoverEvents, PIPELINE_VERSION } from "../../src/discovery/Discover.ts"
import * as ScanCache from "../../src/discovery/ScanCache.ts"
import { SourceTree } from "../../src/ports/SourceTree.ts"
import { scanMemory, withoutRun } from "./support.ts"

const REPO = {
  "package.json": JSON.stringify({ name: "demo" }),
  "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "@lib/*": ["src/lib/*"] } } }),
  "src/main.ts": `import { helper } from "@lib/helper"\nimport { next } from "./next.js"\nexport const main = helper + next\n`,
  "src/lib/helper.ts": `export const helper = 1\n`,
  "docs/guide.md": "# Guide\n\nUses `helper` from `src/lib/helper.ts` and [[notes]].\n",
  "docs/notes.md": "# Notes\n"
}

const runEntry = (snapshot: Snapshot) => snapshot.coverage.find((c) => c.scope === "reused-entities")!

/** A tree that counts reads, to see what a warm scan avoids. */
const counting = (files: Readonly<Record<string, SourceTreeMemory.MemoryNode>>) => {
  const reads: Array<string> = []
  const inner = SourceTreeMemory.make(files)
  const layer = Layer.succeed(SourceTree, SourceTree.of({
    ...inner,
    read: (path) => {
      reads.push(path)
      return inner.read(path)
    }
  }))
  return { reads, layer }
}

describe("discover", () => {
  it.effect("discover - a warm scan of an unchanged tree reuses everything and equals the cold scan", () =>
    Effect.gen(function*() {
      const cold = yield* scanMemory(REPO)
      const warm = yield* scanMemory(REPO, { previous: cold })
      assert.deepStrictEqual(withoutRun(warm), withoutRun(cold))
      assert.deepStrictEqual(runEntry(cold).status, "not-applicable")
      assert.deepStrictEqual(runEntry(warm).status, "complete")
      assert.include(runEntry(warm).reason, "reused 4 entities (2 modules, 2 documents) and parsed 2 of 6 files")
    }), 30_000) // a cold and a warm scan of a tree

  it.effect("discover - a new module re-resolves reused imports without parsing them, and re-parses documents", () =>
    Effect.gen(function*() {
      const cold = yield* scanMemory(REPO)
      const grown = { ...REPO, "src/next.ts": "export const next = 2\n" }
      const warm = yield* scanMemory(grown, { previous: cold })
      const fresh = yield* scanMemory(grown)
      assert.deepStrictEqual(withoutRun(warm), withoutRun(fresh))
      assert.strictEqual(runEntry(warm).status, "partial")
      assert.include(runEntry(warm).reason, "the module universe changed")
      assert.isTrue(warm.relations.some((r) => r.from === "module:src/main.ts" && r.to === "module:src/next.ts"))
      assert.isTrue(cold.relations.some((r) => r.from === "module:src/main.ts" && r.to === "unresolved:src/next.js"))
    }))

  it.effect("discover - package.json imports resolve to the files they name, and changing them re-resolves reused modules", () =>
    Effect.gen(function*() {
      const tree = {
        "package.json": JSON.stringify({ name: "demo", imports: { "#lib/*": { types: "./src/lib/*.ts", import: "./dist/lib/*.js" }, "#config": "./src/config.js" } }),
        "src/main.ts": `import { helper } from "#lib/helper"\nimport { config } from "#config"\nexport const main = helper + config\n`,
        "src/lib/helper.ts": "export const helper = 1\n",
        "src/config.ts": "export const config = 2\n"
      }
      const imports = (snapshot: Snapshot) => snapshot.relations.filter((r) => r.from === "module:src/main.ts" && r.kind === "imports").map((r) => r.to)
      const packageOf = (snapshot: Snapshot) => snapshot.entities.find((e) => e.id === "package:demo")!
      const cold = yield* scanMemory(tree)
      assert.deepStrictEqual(imports(cold), ["module:src/config.ts", "module:src/lib/helper.ts"])
      assert.deepStrictEqual((packageOf(cold) as { imports?: unknown }).imports, [
        { pattern: "#lib/*", targets: ["dist/lib/*.js", "src/lib/*.ts"] },
        { pattern: "#config", targets: ["src/config.js"] }
      ])
      // A manifest without imports keeps the package entity it always had.
      assert.isFalse("imports" in packageOf(yield* scanMemory(REPO)))
      const moved = { ...tree, "package.json": JSON.stringify({ name: "demo", imports: { "#config": "./src/lib/helper.ts" } }) }
      const warm = yield* scanMemory(moved, { previous: cold })
      assert.deepStrictEqual(withoutRun(warm), withoutRun(yield* scanMemory(moved)))
      assert.deepStrictEqual(imports(warm), ["external:#lib", "module:src/lib/helper.ts"])
    }))

  it.effect("discover - a previous snapshot from another configuration or pipeline is refused whole", () =>
    Effect.gen(function*() {
      const cold = yield* scanMemory(REPO)
      const otherConfig = yield* scanMemory(REPO, { previous: cold, config: { areaDepth: 1 } })
      assert.strictEqual(runEntry(otherConfig).status, "partial")
      assert.include(runEntry(otherConfig).reason, "configurationHash differs")
      const otherPipeline = yield* scanMemory(REPO, { previous: { ...cold, pipelineVersion: "discover/0" } })
      assert.include(runEntry(otherPipeline).reason, `pipelineVersion discover/0 is not ${PIPELINE_VERSION}`)
      const undeclared = yield* scanMemory(REPO, { previous: { ...cold, analyzerVersions: {} } })
      assert.include(runEntry(undeclared).reason, "declares no analyzerVersions")
      assert.include(runEntry(undeclared).reason, "parsed 6 of 6")
    }))

  it.effect("discover - with a hash cache, a warm scan reads only what changed", () =>
    Effect.gen(function*() {
      const cache = ScanCache.make()
      const first = counting(REPO)
      const cold = yield* discover({ cache }).pipe(Effect.provide(first.layer), Effect.provide(Digest.layerWebCrypto))
      assert.includeMembers(first.reads, ["src/main.ts", "docs/guide.md"])
      const edited = { ...REPO, "src/lib/helper.ts": `export const helper = 1\n// touched\n` }
      const second = counting(edited)
      const warm = yield* discover({ cache, previous: cold }).pipe(Effect.provide(second.layer), Effect.provide(Digest.layerWebCrypto))
      assert.deepStrictEqual(second.reads.filter((p) => p.startsWith("src/") || p.startsWith("docs/")), ["src/lib/helper.ts"])
      assert.deepStrictEqual(withoutRun(warm), withoutRun(yield* scanMemory(edited)))
    }))

  it.effect("discoverEvents - progress for every file, then the snapshot", () =>
    Effect.gen(function*() {
      const events = yield* Stream.runCollect(discoverEvents()).pipe(
        Effect.provide(SourceTreeMemory.layer(REPO)),
        Effect.provide(Digest.layerWebCrypto)
      )
      const last = events[events.length - 1]!
      assert.strictEqual(last._tag, "Completed")
      const progress = events.filter((e) => e._tag === "Progress")
      assert.deepStrictEqual([...new Set(progress.map((p) => p.phase))], ["listing", "configuration", "modules", "documents", "assembling"])
      const final = progress[progress.length - 1]!
      assert.deepStrictEqual([final.seen, final.done, final.total, final.parsed], [6, 6, 6, 6])
      if (last._tag === "Completed") assert.strictEqual(serialize(last.snapshot), serialize(yield* scanMemory(REPO)))
    }))

  it("assemble - drops edges to vanished internal entities and derives externals from what remains", () => {
    const { fields } = body({
      header: { pipelineVersion: PIPELINE_VERSION, analyzerVersions: { typescript: "1" }, configurationHash: "h", sourceRevision: null, compilerOptions: [] },
      units: [{
        entity: { id: "module:a.ts", kind: "module", path: "a.ts", evidence: [], language: "ts", exports: [], declarations: [] },
        relations: [
          { kind: "imports", from: "module:a.ts", to: "unresolved:x", status: "observed", confidence: "exact", evidence: [{ path: "a.ts", line: 3 }] },
          { kind: "imports", from: "module:a.ts", to: "module:gone.ts", status: "observed", confidence: "exact", evidence: [] },
          { kind: "imports", from: "module:a.ts", to: "external:left-pad", status: "observed", confidence: "exact", evidence: [] },
          { kind: "imports", from: "module:a.ts", to: "unresolved:x", status: "observed", confidence: "exact", evidence: [{ path: "a.ts", line: 1 }] }
        ],
        coverage: []
      }],
      coverage: []
    }, ScanCache.make())
    assert.deepStrictEqual(fields.relations.map((r) => [r.to, r.evidence.map((e) => e.line)]), [["external:left-pad", []], ["unresolved:x", [1, 3]]])
    assert.deepStrictEqual(fields.entities.map((e) => e.id), ["external:left-pad", "module:a.ts"])
  })

  it.effect("contentHash - anyone can recompute it from the written JSON alone", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanMemory(REPO)
      const { contentHash, coverage, entities, relations, ...head } = JSON.parse(serialize(snapshot)) as Snapshot
      const sha = (text: string) => createHash("sha256").update(text).digest()
      const parts = [
        sha(JSON.stringify({ ...head, counts: [entities.length, relations.length, coverage.length] })),
        ...entities.map((e) =>
          sha([JSON.stringify(e), ...relations.filter((r) => r.from === e.id).map((r) => JSON.stringify(r))].join("\n"))
        ),
        sha(JSON.stringify(coverage))
      ]
      assert.strictEqual(createHash("sha256").update(Buffer.concat(parts)).digest("hex"), contentHash)
      const changed = yield* scanMemory({ ...REPO, "docs/notes.md": "# Notes, edited\n" })
      assert.notStrictEqual(changed.contentHash, contentHash)
    }))
})
