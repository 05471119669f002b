import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { CoChange } from "../src/ports/CoChange.ts"
import * as CoChangeMemory from "../layers/reference/CoChangeMemory.ts"
import * as Recall from "../layers/Recall.ts"
import { corpus } from "../test/support/Corpus.ts"
import { clampEchoedQuery, MAX_ECHOED_QUERY_CHARS } from "../src/retrieval/pack.ts"
import { makeChunk } from "../layers/contracts/ChunkFixtures.ts"
import { search } from "./search.ts"

const layer = Recall.reference(corpus)
/** A chunk of source, its lines counted from its text. */
const code = (id: string, text: string) => makeChunk({ id, text, noteType: "code", lineEnd: text.split("\n").length })

describe("search over the reference layers", () => {
  it.effect("files by default, one result per file, in the order of their best chunk", () =>
    Effect.gen(function*() {
      const response = yield* search({ query: "roll back a deploy", limit: 20 })
      const paths = response.results.map((result) => result.path)
      assert.strictEqual(paths[0], "runbooks/rollback.md")
      assert.strictEqual(new Set(paths).size, paths.length)
      assert.isTrue(response.results.every((result) => result.kind === "document" || result.kind === "module"))
      const scores = response.results.map((result) => result.score)
      assert.deepStrictEqual(scores, [...scores].sort((a, b) => b - a))
      assert.match(response.results[0]!.excerpt, /^\d+: /)
    }).pipe(Effect.provide(layer)))

  it.effect("kinds filter after ranking: chunks keep the order the full ranking gives them, and pages tile it", () =>
    Effect.gen(function*() {
      const all = yield* search({ query: "deploy", kinds: ["chunk"], limit: 30 })
      const first = yield* search({ query: "deploy", kinds: ["chunk"], limit: 3 })
      const second = yield* search({ query: "deploy", kinds: ["chunk"], limit: 3, offset: 3 })
      assert.deepStrictEqual([...first.results, ...second.results].map((r) => r.chunk), all.results.slice(0, 6).map((r) => r.chunk))
      assert.isAtLeast(all.total, 6)
      // Files are the chunks' paths in first-seen order.
      const files = yield* search({ query: "deploy", limit: 30 })
      const firstSeen = [...new Set(all.results.map((r) => r.path))]
      assert.deepStrictEqual(files.results.map((r) => r.path), firstSeen.slice(0, files.results.length))
    }).pipe(Effect.provide(layer)))

  it.effect("explain adds each result's leg ranks; a bad page is an InvalidInput naming the field", () =>
    Effect.gen(function*() {
      const explained = yield* search({ query: "deploy", explain: true, limit: 2 })
      assert.isDefined(explained.results[0]?.components)
      assert.isAbove(Object.keys(explained.results[0]!.components!.ranks).length, 0)
      const tooDeep = yield* Effect.flip(search({ query: "deploy", offset: 150, limit: 60 }))
      assert.strictEqual(tooDeep._tag, "InvalidInput")
      assert.match(tooDeep.message, /offset/)
      const unknownKind = yield* Effect.flip(search({ query: "deploy", kinds: ["folder"] }))
      assert.match(unknownKind.message, /kinds/)
      const nothing = yield* search({ query: "zzzzqqqq" })
      assert.deepStrictEqual(nothing.results, [])
    }).pipe(Effect.provide(layer)))
  it.effect("a megabyte asked is not a megabyte answered: the query is echoed bounded, as a pack echoes it", () =>
    Effect.gen(function*() {
      const huge = "deploy rollback ".repeat(65_536)
      const response = yield* search({ query: huge, limit: 5 })
      assert.strictEqual(response.query, clampEchoedQuery(huge))
      assert.isAtMost(response.query.length, MAX_ECHOED_QUERY_CHARS)
      assert.isTrue(huge.startsWith(response.query))
      const plain = yield* search({ query: "roll back a deploy", limit: 5 })
      assert.strictEqual(plain.query, "roll back a deploy")
    }).pipe(Effect.provide(layer)), 60_000)
})

describe("search over code", () => {
  const chunks = [
    code("lib/helpers/buildURL.js#a", "export default function buildURL(url, params, options) {\n  return url + serialize(params, options.paramsSerializer)\n}"),
    code("test/buildURL.test.js#a", "describe('buildURL', () => {\n  it('passes a callback as paramsSerializer to buildURL', () => {\n    expect(buildURL('/x', { a: 1 }, { paramsSerializer: callback })).toBe('/x?a=1')\n  })\n})"),
    code("lib/defaults.js#a", "export const defaults = { timeout: 0, headers: {} }")
  ]
  const edges = [
    { from: "test/buildURL.test.js", to: "lib/helpers/buildURL.js", verb: "imports" },
    { from: "test/buildURL.test.js", to: "lib/helpers/buildURL.js", verb: "test_sibling" },
    { from: "lib/defaults.js", to: "lib/helpers/buildURL.js", verb: "imports" },
    { from: "lib/defaults.js", to: "lib/helpers/buildURL.js", verb: "calls" }
  ]
  const codeLayer = (config: object = {}) => Recall.reference({ chunks, edges }, { config })
  const query = "allow a callback as paramsSerializer to buildURL"

  it.effect("a test file is weighed down unless the query asks about tests, and explain says by how much", () =>
    Effect.gen(function*() {
      const weighed = yield* search({ query, explain: true, limit: 3 })
      assert.strictEqual(weighed.results[0]?.path, "lib/helpers/buildURL.js")
      const test = weighed.results.find((r) => r.path === "test/buildURL.test.js")!
      assert.strictEqual(test.components?.testWeight, 0.5)
      assert.closeTo(test.score, test.components!.rrf * 0.5, 1e-4)
      const unweighed = yield* search({ query, explain: true, limit: 3 }).pipe(Effect.provide(codeLayer({ testFileWeight: 1 })))
      assert.strictEqual(unweighed.results[0]?.path, "test/buildURL.test.js")
      const asked = yield* search({ query: `which tests ${query}`, explain: true, limit: 3 })
      assert.strictEqual(asked.results.find((r) => r.path === "test/buildURL.test.js")?.components?.testWeight, 1)
    }).pipe(Effect.provide(codeLayer())), 30_000)

  it.effect("each result carries the files one import or call away, its tests apart from its importers", () =>
    Effect.gen(function*() {
      const found = yield* search({ query, limit: 3 })
      const byPath = new Map(found.results.map((r) => [r.path, r.related]))
      assert.deepStrictEqual(byPath.get("lib/helpers/buildURL.js"), { imports: [], importedBy: ["lib/defaults.js"], calls: [], calledBy: ["lib/defaults.js"], testSiblings: ["test/buildURL.test.js"] })
      assert.deepStrictEqual(byPath.get("test/buildURL.test.js"), { imports: [], importedBy: [], calls: [], calledBy: [], testSiblings: ["lib/helpers/buildURL.js"] })
    }).pipe(Effect.provide(codeLayer())), 30_000)
})

describe("search's second stage", () => {
  const chunks = [
    code("src/upload.ts#a", "export function upload(file: File) {\n  // retry the upload when the session token expires\n  return withBackoff(() => send(file))\n}"),
    code("src/session.ts#a", "export const refreshSession = () => {\n  // a session token expires after an hour\n}"),
    code("src/backoff.ts#a", "export const withBackoff = (run: () => Promise<void>) => run().catch(() => wait(2 ** attempts))"),
    code("src/colours.ts#a", "export const palette = ['teal', 'amber']")
  ]
  const edges = [
    { from: "src/upload.ts", to: "src/backoff.ts", verb: "calls" },
    { from: "src/upload.ts", to: "src/backoff.ts", verb: "imports" },
    { from: "src/colours.ts", to: "src/backoff.ts", verb: "links-to" }
  ]
  const layerWith = (config: object) => Recall.reference({ chunks, edges }, { config })
  const query = "retry the upload when the token expires"
  const rankOf = (paths: ReadonlyArray<string>, path: string) => (paths.indexOf(path) === -1 ? Infinity : paths.indexOf(path))

  it.effect("off by default and reported skipped; on, a confident seed's callee rises and explain says from where", () =>
    Effect.gen(function*() {
      const off = yield* search({ query, explain: true, limit: 10 }).pipe(Effect.provide(layerWith({})))
      assert.deepStrictEqual(off.legs.find((leg) => leg.name === "expansion"), { name: "expansion", status: "skipped", hits: 0 })
      assert.isTrue(off.results.every((r) => r.components?.expansion === undefined))
      const on = yield* search({ query, explain: true, limit: 10 }).pipe(Effect.provide(layerWith({ searchExpansionSeeds: 5 })))
      assert.deepStrictEqual(on.legs.find((leg) => leg.name === "expansion"), { name: "expansion", status: "ok", hits: 1 })
      // Files both legs rank stay above the step's one opinion.
      assert.deepStrictEqual(on.results.slice(0, 2).map((r) => r.path).sort(), ["src/session.ts", "src/upload.ts"])
      const backoff = on.results.find((r) => r.path === "src/backoff.ts")!
      assert.deepStrictEqual(backoff.components?.expansion, { rank: 1, via: "src/upload.ts" })
      assert.isBelow(rankOf(on.results.map((r) => r.path), "src/backoff.ts"), rankOf(off.results.map((r) => r.path), "src/backoff.ts"))
      // Only imports and calls are ways across: the file that merely links to it is not reached.
      assert.isUndefined(on.results.find((r) => r.path === "src/colours.ts")?.components?.expansion)
      const scores = on.results.map((r) => r.score)
      assert.deepStrictEqual(scores, [...scores].sort((a, b) => b - a))
    }), 30_000)

  it.effect("a query with no confident file seeds nothing, and says so", () =>
    Effect.gen(function*() {
      const vague = yield* search({ query: "palette", limit: 10 }).pipe(Effect.provide(layerWith({ searchExpansionSeeds: 5, titlePathLimit: 0 })))
      // One query term that the colours file holds: confident, but its only edge is not a way across.
      assert.deepStrictEqual(vague.legs.find((leg) => leg.name === "expansion")?.status, "empty")
      const none = yield* search({ query: "zzzzqqqq", limit: 10 }).pipe(Effect.provide(layerWith({ searchExpansionSeeds: 5 })))
      assert.deepStrictEqual(none.legs.find((leg) => leg.name === "expansion")?.status, "empty")
    }), 30_000)
})

describe("search's co-change leg", () => {
  const chunks = [
    code("src/upload.ts#a", "export function upload(file: File) {\n  // retry the upload when the session token expires\n  return send(file)\n}"),
    code("src/session.ts#a", "export const refreshSession = () => {\n  // a session token expires after an hour\n}"),
    code("src/wire.ts#a", "export const frame = (bytes: Uint8Array) => [bytes.length, ...bytes]"),
    code("src/index.ts#a", "export * from './upload.ts'"),
    code("src/types.ts#a", "export type Bytes = Uint8Array")
  ]
  const repeat = (times: number, paths: ReadonlyArray<string>) => Array.from({ length: times }, () => paths)
  // The wire format changed with the upload three times; the index and the types, the hubs, more often.
  const history = CoChangeMemory.historyOf([
    ...repeat(6, ["src/upload.ts", "src/index.ts"]),
    ...repeat(5, ["src/upload.ts", "src/types.ts"]),
    ...repeat(3, ["src/upload.ts", "src/wire.ts"])
  ])
  const layerWith = (config: object) => Recall.reference({ chunks, edges: [] }, { config })
  const query = "retry the upload when the token expires"

  it.effect("off by default and reported skipped; on, a file the history changed with a confident seed rises, the hubs do not", () =>
    Effect.gen(function*() {
      const off = yield* search({ query, explain: true, limit: 10 }).pipe(Effect.provide(CoChangeMemory.layer(history)), Effect.provide(layerWith({})))
      assert.deepStrictEqual(off.legs.find((leg) => leg.name === "cochange"), { name: "cochange", status: "skipped", hits: 0 })
      assert.isUndefined(off.results.find((r) => r.path === "src/wire.ts"))
      const on = yield* search({ query, explain: true, limit: 10 }).pipe(
        Effect.provide(CoChangeMemory.layer(history)),
        Effect.provide(layerWith({ coChangeSeeds: 5 }))
      )
      assert.deepStrictEqual(on.legs.find((leg) => leg.name === "cochange"), { name: "cochange", status: "ok", hits: 1 })
      assert.deepStrictEqual(on.results.find((r) => r.path === "src/wire.ts")?.components?.cochange, { rank: 1, via: "src/upload.ts" })
      assert.isUndefined(on.results.find((r) => r.path === "src/index.ts")?.components?.cochange)
      assert.isUndefined(on.results.find((r) => r.path === "src/types.ts")?.components?.cochange)
      assert.deepStrictEqual(on.gaps, [])
      // With no hub left out, the index is reached too.
      const hubs = yield* search({ query, explain: true, limit: 10 }).pipe(
        Effect.provide(CoChangeMemory.layer(history)),
        Effect.provide(layerWith({ coChangeSeeds: 5, coChangeSkipTop: 0 }))
      )
      assert.deepStrictEqual(hubs.results.find((r) => r.path === "src/index.ts")?.components?.cochange, { rank: 1, via: "src/upload.ts" })
    }), 30_000)

  it.effect("on without a history to read, it is skipped and a gap says why, never an empty success", () =>
    Effect.gen(function*() {
      const none = yield* search({ query, limit: 10 }).pipe(Effect.provide(CoChangeMemory.layer(undefined)), Effect.provide(layerWith({ coChangeSeeds: 5 })))
      assert.deepStrictEqual(none.legs.find((leg) => leg.name === "cochange"), { name: "cochange", status: "skipped", hits: 0 })
      assert.match(none.gaps.join("\n"), /co-change leg is on but has no history/)
      const absent = yield* search({ query, limit: 10 }).pipe(Effect.provide(layerWith({ coChangeSeeds: 5 })))
      assert.match(absent.gaps.join("\n"), /co-change leg is on but has no history/)
      // Its results are the first pass's.
      const off = yield* search({ query, limit: 10 }).pipe(Effect.provide(layerWith({})))
      assert.deepStrictEqual(none.results.map((r) => r.path), off.results.map((r) => r.path))
    }), 30_000)

  it.live("a history that cannot be read in time leaves the leg timed out, with a gap, and the first pass's ranking", () =>
    Effect.gen(function*() {
      const stuck = Layer.succeed(CoChange, CoChange.of({ history: () => Effect.never }))
      const late = yield* search({ query, limit: 10 }).pipe(Effect.provide(stuck), Effect.provide(layerWith({ coChangeSeeds: 5, softTimeoutMs: 50 })))
      assert.deepStrictEqual(late.legs.find((leg) => leg.name === "cochange"), { name: "cochange", status: "timed_out", hits: 0 })
      assert.match(late.gaps.join("\n"), /cochange stage ran out of time/)
      const off = yield* search({ query, limit: 10 }).pipe(Effect.provide(layerWith({ softTimeoutMs: 50 })))
      assert.deepStrictEqual(late.results.map((r) => r.path), off.results.map((r) => r.path))
    }), 30_000)
})

describe("the symbol leg", () => {
  const chunks = [
    { ...code("src/budget.ts#a", "src/budget.ts > enforceTokenBudget\nexport function enforceTokenBudget(claims: Claims, limit: number) {\n  return claims.filter((claim) => claim.cost <= limit)\n}"), symbols: ["enforceTokenBudget"] },
    code("docs/budget.md#a", "Budget\nThe token budget is enforced for every claim the pack holds."),
    code("src/colours.ts#a", "export const palette = ['teal', 'amber']")
  ]
  const layerWith = (config: object) => Recall.reference({ chunks, edges: [] }, { config })
  const query = "enforceTokenBudget"

  it.effect("off by default and reported skipped; on, it ranks the declaring chunk and says so", () =>
    Effect.gen(function*() {
      const off = yield* search({ query, explain: true }).pipe(Effect.provide(layerWith({})))
      assert.deepStrictEqual(off.legs.find((leg) => leg.name === "symbol"), { name: "symbol", status: "skipped", hits: 0 })
      const on = yield* search({ query, explain: true }).pipe(Effect.provide(layerWith({ symbolLimit: 20 })))
      assert.deepStrictEqual(on.legs.find((leg) => leg.name === "symbol"), { name: "symbol", status: "ok", hits: 1 })
      assert.strictEqual(on.results[0]?.path, "src/budget.ts")
      assert.strictEqual(on.results[0]?.components?.ranks["symbol"], 1)
      const nothing = yield* search({ query: "palette colours" }).pipe(Effect.provide(layerWith({ symbolLimit: 20 })))
      assert.strictEqual(nothing.legs.find((leg) => leg.name === "symbol")?.status, "empty")
    }), 30_000)
})
