/**
 * Incremental reuse never changes the answer: after any edit script (add, delete, rename, edit a
 * file, add a BOM, change tsconfig paths, change a module's exports), a warm scan offered the
 * previous snapshot equals a cold scan of the edited tree in everything but the run's own coverage
 * entry, with or without a hash cache carried over from the first scan, and when the previous
 * snapshot was read back from its file and adopted as canonical. Serialising from a scan's cache
 * gives the bytes `JSON.stringify` gives.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import { adopt, serialize } from "../src/discovery/Assemble.ts"
import * as ScanCache from "../src/discovery/ScanCache.ts"
import { scanMemory, withoutRun } from "../test/discovery/support.ts"
import { applyEdit, buildRepo, EditSpec, RepoSpec } from "./discoveryRepos.ts"

// 200 generated cases take seconds on a loaded machine.
const RUNS = { timeout: 60_000, arbitrary: { runs: 200, seed: 20261130 } }
const Script = Schema.Array(EditSpec).check(Schema.isMaxLength(4))

describe("discovery incremental", () => {
  it.effect.prop("warm equals cold after any edit script, except the run entry", { repo: RepoSpec, script: Script }, ({ repo, script }) =>
    Effect.gen(function*() {
      const before = buildRepo(repo)
      const after = script.reduce(applyEdit, before)
      const cache = ScanCache.make()
      const previous = yield* scanMemory(before, { cache })
      const cold = yield* scanMemory(after)
      const warm = yield* scanMemory(after, { previous })
      const cached = yield* scanMemory(after, { previous, cache })
      const reread = JSON.parse(serialize(previous, cache)) as Snapshot
      const adoptedCache = ScanCache.make()
      adopt(reread, adoptedCache)
      const adopted = yield* scanMemory(after, { previous: reread, cache: adoptedCache })
      const expected = serialize(withoutRun(cold))
      assert.strictEqual(serialize(withoutRun(warm)), expected)
      assert.strictEqual(serialize(withoutRun(cached)), expected)
      assert.strictEqual(serialize(withoutRun(adopted)), expected)
      assert.strictEqual(serialize(cached, cache), JSON.stringify(cached))
      assert.strictEqual(serialize(adopted, adoptedCache), JSON.stringify(adopted))
    }), RUNS)

  it.effect.prop("a warm scan of an unchanged tree reuses every file it can", { repo: RepoSpec }, ({ repo }) =>
    Effect.gen(function*() {
      const files = buildRepo(repo)
      const previous = yield* scanMemory(files)
      const warm = yield* scanMemory(files, { previous })
      const run = warm.coverage.find((entry) => entry.scope === "reused-entities")
      assert.strictEqual(run?.status, "complete")
      // Manifests and tsconfig files are read on every scan; every other file is reused.
      const configFiles = Object.keys(files).filter((path) => /(^|\/)(package\.json|tsconfig\.json|go\.mod)$/.test(path)).length
      assert.match(run?.reason ?? "", new RegExp(`and parsed ${configFiles} of`))
    }), RUNS)
})
