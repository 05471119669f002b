/**
 * Discovery is deterministic: the same tree listed in any order gives byte-identical snapshots.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { serialize } from "../src/discovery/Assemble.ts"
import { scanMemory } from "../test/discovery/support.ts"
import { shuffle } from "./arbitraries.ts"
import { buildRepo, RepoSpec } from "./discoveryRepos.ts"

// 200 generated cases take seconds on a loaded machine.
const RUNS = { timeout: 60_000, arbitrary: { runs: 200, seed: 20261130 } }

describe("discovery order", () => {
  it.effect.prop("a shuffled listing gives an identical snapshot, byte for byte", { repo: RepoSpec, seed: Schema.Int }, ({ repo, seed }) =>
    Effect.gen(function*() {
      const files = buildRepo(repo)
      const shuffled = Object.fromEntries(shuffle(Object.entries(files), seed))
      const reversed = Object.fromEntries(Object.entries(files).reverse())
      const a = serialize(yield* scanMemory(files))
      assert.strictEqual(serialize(yield* scanMemory(shuffled)), a)
      assert.strictEqual(serialize(yield* scanMemory(reversed, { config: { concurrency: 1 } })), a)
    }), RUNS)
})
