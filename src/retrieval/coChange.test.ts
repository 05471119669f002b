import { assert, describe, it } from "@effect/vitest"
import type { ChangeHistory } from "../domain/ChangeHistory.ts"
import { coChanged } from "./coChange.ts"

/** A history from commits written as path lists, newest first. */
const historyOf = (commits: ReadonlyArray<ReadonlyArray<string>>): ChangeHistory => {
  const paths = [...new Set(commits.flat())].sort()
  const idOf = new Map(paths.map((path, id) => [path, id]))
  return { head: "h", paths, commits: commits.map((changed) => changed.map((path) => idOf.get(path)!)) }
}

const repeat = <A>(times: number, value: A): Array<A> => Array.from({ length: times }, () => value)
const options = { window: 1_000, maxFiles: 20, minCount: 3, skipTop: 0, limit: 20 }

describe("coChanged", () => {
  it("counts a pair once per commit that changed both, from three up, scored count / √(changes × changes)", () => {
    const history = historyOf([
      ...repeat(3, ["parse.ts", "print.ts"]),
      ...repeat(2, ["parse.ts", "lex.ts"]),
      ["print.ts", "other.ts"]
    ])
    const found = coChanged(history, [{ path: "parse.ts", weight: 1 }], options)
    // lex.ts shares two commits only; print.ts three, of parse.ts's five and its own four.
    assert.deepStrictEqual(found.map((e) => [e.path, e.count, e.via]), [["print.ts", 3, "parse.ts"]])
    assert.closeTo(found[0]!.score, 3 / Math.sqrt(5 * 4), 1e-12)
  })

  it("skips a commit touching more than maxFiles files, and commits beyond the window", () => {
    const sweep = ["a.ts", "b.ts", ...Array.from({ length: 20 }, (_, i) => `f${i}.ts`)]
    const history = historyOf([["a.ts", "b.ts"], sweep, ["a.ts", "b.ts"]])
    assert.deepStrictEqual(coChanged(history, [{ path: "a.ts", weight: 1 }], options), [])
    assert.deepStrictEqual(coChanged(history, [{ path: "a.ts", weight: 1 }], { ...options, maxFiles: 22 }).map((e) => e.path).slice(0, 1), ["b.ts"])
    assert.deepStrictEqual(coChanged(history, [{ path: "a.ts", weight: 1 }], { ...options, maxFiles: 22, window: 2 }).map((e) => e.path).slice(0, 1), [])
  })

  it("leaves out each seed's most frequent neighbours, the hubs, and never returns a seed", () => {
    const history = historyOf([
      ...repeat(9, ["api.ts", "index.ts"]),
      ...repeat(6, ["api.ts", "CHANGELOG.md"]),
      ...repeat(4, ["api.ts", "schema.ts"]),
      ...repeat(3, ["api.ts", "client.ts"])
    ])
    const seeds = [{ path: "api.ts", weight: 1 }, { path: "client.ts", weight: 0.5 }]
    assert.deepStrictEqual(coChanged(history, seeds, { ...options, skipTop: 2 }).map((e) => e.path), ["schema.ts"])
    assert.deepStrictEqual(coChanged(history, seeds, options).map((e) => e.path), ["index.ts", "CHANGELOG.md", "schema.ts"])
  })

  it("sums what several seeds give a file, names the seed that gave most, and keeps the limit", () => {
    const history = historyOf([
      ...repeat(3, ["a.ts", "shared.ts"]),
      ...repeat(3, ["b.ts", "shared.ts"]),
      ...repeat(4, ["a.ts", "only-a.ts"])
    ])
    const found = coChanged(history, [{ path: "a.ts", weight: 1 }, { path: "b.ts", weight: 0.4 }], options)
    const shared = found.find((e) => e.path === "shared.ts")!
    assert.strictEqual(shared.via, "a.ts")
    assert.closeTo(shared.score, 3 / Math.sqrt(7 * 6) + (0.4 * 3) / Math.sqrt(3 * 6), 1e-12)
    assert.deepStrictEqual(coChanged(history, [{ path: "a.ts", weight: 1 }], { ...options, limit: 1 }).map((e) => e.path), ["only-a.ts"])
  })

  it("weighs each neighbour by its own factor; a path the history never saw gives nothing", () => {
    const history = historyOf([...repeat(3, ["a.ts", "a.test.ts"]), ...repeat(3, ["a.ts", "b.ts"])])
    const weigh = (path: string) => (path.includes(".test.") ? 0.5 : 1)
    assert.deepStrictEqual(coChanged(history, [{ path: "a.ts", weight: 1 }], { ...options, weigh }).map((e) => e.path), ["b.ts", "a.test.ts"])
    assert.deepStrictEqual(coChanged(history, [{ path: "new.ts", weight: 1 }], options), [])
  })

  it("a seed changed with another seed takes no hub's place", () => {
    const history = historyOf([
      ...repeat(9, ["a.ts", "b.ts"]),
      ...repeat(6, ["a.ts", "index.ts"]),
      ...repeat(5, ["a.ts", "changelog.md"]),
      ...repeat(3, ["a.ts", "wire.ts"])
    ])
    const found = coChanged(history, [{ path: "a.ts", weight: 1 }, { path: "b.ts", weight: 1 }], { ...options, skipTop: 2 })
    assert.deepStrictEqual(found.map((e) => e.path), ["wire.ts"])
  })

  it("is the same whatever order the seeds come in", () => {
    const history = historyOf([
      ...repeat(3, ["a.ts", "c.ts"]),
      ...repeat(4, ["b.ts", "c.ts"]),
      ...repeat(5, ["e.ts", "c.ts"]),
      ...repeat(3, ["a.ts", "d.ts", "b.ts"])
    ])
    const seeds = [{ path: "a.ts", weight: 0.7 }, { path: "b.ts", weight: 0.3 }, { path: "e.ts", weight: 0.1 }]
    const one = coChanged(history, seeds, options)
    for (const order of [[2, 1, 0], [1, 0, 2], [0, 2, 1]]) assert.deepStrictEqual(coChanged(history, order.map((i) => seeds[i]!), options), one)
  })
})
