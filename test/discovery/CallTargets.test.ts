/**
 * Calls followed through re-exports, on trees scanned as the CLI scans them: each call lands on
 * the module that declares what it calls, with the barrel it went through as evidence, and a warm
 * scan after a barrel moves follows its calls again, as a cold scan would.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { serialize } from "../../src/discovery/Assemble.ts"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { scanMemory, withoutRun } from "./support.ts"

/** `from -> to symbol (via barrel)` for every call evidence item. */
const calls = (snapshot: Snapshot): Array<string> =>
  snapshot.relations.filter((relation) => relation.kind === "calls").flatMap((relation) =>
    relation.evidence.map((item) =>
      `${relation.from.slice(7)} -> ${relation.to.slice(7)} ${item.symbol}${item.via === undefined ? "" : ` (via ${item.via.slice(7)})`}`
    )
  )

const TREE: Record<string, string> = {
  "src/shapes/circle.ts": "export function circle(r: number) { return { r } }\nexport default function unit() { return circle(1) }\n",
  "src/shapes/square.ts": "export class Square { static of(side: number) { return new Square() } }\n",
  "src/shapes/index.ts": [
    "export * from \"./circle.ts\"",
    "export * from \"./square.ts\"",
    "export { circle as round } from \"./circle.ts\"",
    "export { default as unit } from \"./circle.ts\"",
    "export * as squares from \"./square.ts\""
  ].join("\n") + "\n",
  "src/index.ts": "export * from \"./shapes/index.ts\"\nexport { parse } from \"yaml\"\n",
  "src/own.ts": "export const own = () => 1\n",
  "src/use.ts": [
    "import { circle, round, unit, Square, squares, parse } from \"./index.ts\"",
    "import { own } from \"./own.ts\"",
    "export const use = () => {",
    "  circle(1); round(2); unit(); Square.of(3); new Square(); new squares.Square(); parse(\"a: 1\"); own()",
    "}"
  ].join("\n") + "\n"
}

describe("calls through re-exports", () => {
  it.effect("land on the declaring module, through renames, stars, nested barrels and namespaces", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanMemory(TREE)
      assert.deepStrictEqual(calls(snapshot).sort(), [
        // A package re-exported by the barrel is outside the tree: the call stays on the barrel.
        "src/use.ts -> src/index.ts parse",
        "src/use.ts -> src/own.ts own",
        "src/use.ts -> src/shapes/circle.ts circle (via src/index.ts)",
        "src/use.ts -> src/shapes/circle.ts round (via src/index.ts)",
        "src/use.ts -> src/shapes/circle.ts unit (via src/index.ts)",
        "src/use.ts -> src/shapes/square.ts Square (via src/index.ts)",
        "src/use.ts -> src/shapes/square.ts Square.of (via src/index.ts)",
        "src/use.ts -> src/shapes/square.ts squares.Square (via src/index.ts)"
      ].sort())
    }))

  it.effect("stay on the barrel where it cannot account for the name: two stars offer it, a default through a star, a cycle", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanMemory({
        "src/a.ts": "export const twice = () => 1\n",
        "src/b.ts": "export const twice = () => 2\n",
        "src/d.ts": "export default function d() {}\n",
        "src/both.ts": "export * from \"./a.ts\"\nexport * from \"./b.ts\"\nexport * from \"./d.ts\"\n",
        "src/loop1.ts": "export * from \"./loop2.ts\"\n",
        "src/loop2.ts": "export * from \"./loop1.ts\"\n",
        "src/use.ts": [
          "import { twice } from \"./both.ts\"",
          "import d from \"./both.ts\"",
          "import { nothing } from \"./loop1.ts\"",
          "twice(); d(); nothing()"
        ].join("\n") + "\n"
      })
      assert.deepStrictEqual(calls(snapshot).sort(), [
        "src/use.ts -> src/both.ts default",
        "src/use.ts -> src/both.ts twice",
        "src/use.ts -> src/loop1.ts nothing"
      ])
    }))

  it.effect("a star that meets the same declaration twice, by two paths, is not ambiguous", () =>
    Effect.gen(function*() {
      const snapshot = yield* scanMemory({
        "src/core.ts": "export function run() {}\n",
        "src/left.ts": "export * from \"./core.ts\"\n",
        "src/right.ts": "export * from \"./core.ts\"\n",
        "src/top.ts": "export * from \"./left.ts\"\nexport * from \"./right.ts\"\n",
        "src/use.ts": "import { run } from \"./top.ts\"\nrun()\n"
      })
      assert.deepStrictEqual(calls(snapshot), ["src/use.ts -> src/core.ts run (via src/top.ts)"])
    }))

  it.effect("a warm scan follows them again when only the barrel moved, and equals a cold scan", () =>
    Effect.gen(function*() {
      const before = yield* scanMemory(TREE)
      const moved = { ...TREE, "src/shapes/index.ts": "export * from \"./square.ts\"\nexport { Square as circle } from \"./square.ts\"\n" }
      const warm = yield* scanMemory(moved, { previous: before })
      const cold = yield* scanMemory(moved)
      assert.include(calls(warm), "src/use.ts -> src/shapes/square.ts circle (via src/index.ts)")
      // Names the barrel no longer exports stay on the module the import names.
      assert.include(calls(warm), "src/use.ts -> src/index.ts round")
      assert.deepStrictEqual(withoutRun(warm), withoutRun(cold))
    }))

  it.effect("give the same snapshot whatever order the files are listed in", () =>
    Effect.gen(function*() {
      const reversed = Object.fromEntries(Object.entries(TREE).reverse())
      assert.strictEqual(serialize(yield* scanMemory(reversed)), serialize(yield* scanMemory(TREE)))
    }))
})
