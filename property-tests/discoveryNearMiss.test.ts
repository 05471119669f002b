/**
 * The near-miss index prunes with two upper bounds on Jaro's match count; it must find exactly the
 * candidates the unpruned comparison finds, at any threshold, ties included.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { bruteForce, makeIndex } from "../src/discovery/NearMiss.ts"

const RUNS = { arbitrary: { runs: 200, seed: 20261130 } }

// Segments chosen so that generated paths are often near one another.
const Segment = Schema.Literals(["src", "docs", "a", "ab", "ba", "rank", "rnak", "index", "indx", ".ts", ".md", "/", "-", "é"])
const PathText = Schema.Array(Segment).check(Schema.isMaxLength(8))

describe("discovery near miss", () => {
  it.prop("the pruned index equals brute force", {
    candidates: Schema.Array(PathText).check(Schema.isMaxLength(30)),
    queries: Schema.Array(PathText).check(Schema.isMaxLength(6)),
    threshold: Schema.Literals([0.8, 0.88, 0.92, 0.97])
  }, ({ candidates, queries, threshold }) => {
    const paths = candidates.map((parts) => parts.join(""))
    const pruned = makeIndex(paths, threshold)
    const brute = bruteForce(paths, threshold)
    // Queries both generated and perturbed from candidates, so matches above the threshold occur.
    const perturbed = paths.map((path) => path.replace("an", "na"))
    for (const query of [...queries.map((parts) => parts.join("")), ...perturbed]) {
      assert.deepStrictEqual(pruned.above(query), brute.above(query))
      assert.strictEqual(pruned.match(query), brute.match(query))
    }
  }, RUNS)
})
