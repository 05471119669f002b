/**
 * Stage 8 invariants over generated candidate lists: dedup clusters are complete-link and partition
 * the input, the result does not depend on input order, the pruned comparison gives exactly the
 * exhaustive one, and diversity is a permutation that respects its cap until every note is in.
 */
import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { shuffle } from "./arbitraries.ts"
import type { Candidate } from "../src/domain/Candidate.ts"
import type { ChunkId, TrustState } from "../src/domain/Chunk.ts"
import { byScoreDescThenId, sortCandidates } from "../src/domain/Ranking.ts"
import { dedup, electionOrder, type Vectors } from "../src/retrieval/dedup.ts"
import { isDuplicate, makeProfiler, similarity } from "../src/retrieval/dedup/similarity.ts"
import { diversify } from "../src/retrieval/diversity.ts"
import { candidate } from "../test/support/Fixtures.ts"

const RUNS = { numRuns: 200, seed: 20261130 }

const NOTES = ["a.md", "b.md", "docs/c.md", "src/d.ts"] as const
const WORDS = ["cache", "ttl", "is", "4h", "1h", "for", "every", "tenant"] as const
const PASSAGE = "the cache ttl is four hours for every tenant unless the region pins it lower".split(" ")
const STATES: ReadonlyArray<TrustState> = ["verified", "accepted", "unverified", "stale"]
const CREATED = [null, "2024-01-01T00:00:00Z", "2025-06-01T12:00:00Z", "not a date"] as const

/** One generated candidate: which base direction its vector leans on, and how far it strays. */
const Item = fc.record({
  note: fc.constantFrom(...NOTES),
  // Few distinct scores, so the election's later steps decide often.
  score: fc.constantFrom(0.5, 0.25, 0.25 + Number.EPSILON, 0.1),
  state: fc.constantFrom(...STATES),
  authorKind: fc.constantFrom("human" as const, "agent" as const),
  createdAt: fc.constantFrom(...CREATED),
  // Random words, or a prefix of one shared passage, so bodies contain one another and shingle
  // Jaccard meets the size bound at its edge.
  body: fc.oneof(
    fc.array(fc.constantFrom(...WORDS), { maxLength: 9 }),
    fc.nat({ max: PASSAGE.length }).map((n) => PASSAGE.slice(0, n))
  ),
  vector: fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant("other-width" as const) },
    {
      weight: 6,
      arbitrary: fc.record({
        base: fc.nat({ max: 2 }),
        stray: fc.constantFrom(0, 0.05, 0.15, 0.3, 0.6),
        noise: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 129, maxLength: 129 })
      })
    }
  )
})

const Case = fc.record({
  items: fc.array(Item, { maxLength: 30 }),
  width: fc.constantFrom(20, 129),
  // Three base directions, drawn once per case; each vector is a base plus its own scaled noise.
  bases: fc.array(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 129, maxLength: 129 }), {
    minLength: 3,
    maxLength: 3
  }),
  // A fixed threshold, or (as an index) the exact similarity of one generated pair.
  threshold: fc.oneof(
    fc.record({ fixed: fc.constantFrom(0.92, 0.8, 0.5, 1) }),
    fc.record({ pair: fc.nat() })
  ),
  seed: fc.integer()
})
type Case = typeof Case extends fc.Arbitrary<infer A> ? A : never

interface Built {
  readonly candidates: Array<Candidate>
  readonly vectors: Vectors
  readonly options: { readonly dedupCosine: number; readonly dedupShingleSize: number }
}

const build = (c: Case): Built => {
  const candidates = c.items.map((item, i) => {
    const base = candidate({
      id: `${item.note}#b${i}`,
      noteId: item.note,
      text: `${item.note} > s${i}\n${item.body.join(" ")}`,
      score: item.score
    })
    const provenance = { ...base.chunk.provenance, state: item.state, authorKind: item.authorKind, createdAt: item.createdAt }
    return { ...base, chunk: { ...base.chunk, provenance } }
  })
  const vectors = new Map<ChunkId, ReadonlyArray<number>>()
  c.items.forEach((item, i) => {
    const id = candidates[i]!.chunk.id
    if (item.vector === null) return
    if (item.vector === "other-width") vectors.set(id, c.bases[i % 3]!.slice(0, 7))
    else {
      const { base, noise, stray } = item.vector
      vectors.set(id, Array.from({ length: c.width }, (_, d) => c.bases[base]![d]! + stray * noise[d]!))
    }
  })
  let threshold = 0.92
  if ("fixed" in c.threshold) threshold = c.threshold.fixed
  else {
    // A threshold equal to a pair's own similarity is where an unsound bound would show.
    const profile = makeProfiler(3)
    const profiles = candidates.map((x) => profile(x.chunk, vectors.get(x.chunk.id)))
    const pairs = profiles.flatMap((p, i) => profiles.slice(i + 1).map((q) => similarity(p, q))).filter((s) => s > 0)
    if (pairs.length > 0) threshold = pairs[c.threshold.pair % pairs.length]!
  }
  return { candidates, vectors, options: { dedupCosine: threshold, dedupShingleSize: 3 } }
}

const ids = (cs: ReadonlyArray<Candidate>) => cs.map((c) => c.chunk.id as string)

describe("dedup invariants", () => {
  it("every pair inside a cluster clears the threshold, and clusters partition the input", () => fc.assert(fc.property(Case, (c) => {
    const { candidates, options, vectors } = build(c)
    const result = dedup(candidates, vectors, options)
    const all = [...ids(result.survivors), ...result.collapsed.flatMap((cluster) => ids(cluster.members))]
    assert.deepStrictEqual([...all].sort(), ids(candidates).sort())
    for (const cluster of result.collapsed) {
      const survivor = result.survivors.find((s) => s.chunk.id === cluster.survivor)!
      const members = [survivor, ...cluster.members]
      const profile = makeProfiler(options.dedupShingleSize)
      const profiles = members.map((m) => profile(m.chunk, vectors.get(m.chunk.id)))
      for (let i = 0; i < profiles.length; i++) {
        for (let j = i + 1; j < profiles.length; j++) {
          assert.isTrue(similarity(profiles[i]!, profiles[j]!) >= options.dedupCosine)
        }
      }
      // The survivor wins its cluster's election.
      assert.strictEqual([...members].sort(electionOrder)[0], survivor)
    }
    assert.deepStrictEqual(result.survivors, sortCandidates(result.survivors))
  }), RUNS), 60_000)

  it("the result, survivor set included, does not depend on input order", () => fc.assert(fc.property(Case, (c) => {
    const { candidates, options, vectors } = build(c)
    const forward = dedup(candidates, vectors, options)
    const shuffled = dedup(shuffle(candidates, c.seed), vectors, options)
    assert.deepStrictEqual(ids(shuffled.survivors), ids(forward.survivors))
    assert.deepStrictEqual(shuffled, forward)
  }), RUNS))

  it("pruning gives exactly the exhaustive comparison, pair by pair and cluster by cluster", () => fc.assert(fc.property(Case, (c) => {
    const { candidates, options, vectors } = build(c)
    const profile = makeProfiler(options.dedupShingleSize)
    const profiles = candidates.map((x) => profile(x.chunk, vectors.get(x.chunk.id)))
    for (const p of profiles) {
      for (const q of profiles) {
        assert.strictEqual(isDuplicate(p, q, options.dedupCosine, true), isDuplicate(p, q, options.dedupCosine, false))
      }
    }
    assert.deepStrictEqual(dedup(candidates, vectors, options), dedup(candidates, vectors, options, "exhaustive"))
  }), RUNS))

  it("diversity keeps the multiset and the cap until every note is in; both runs keep rank order", () => fc.assert(fc.property(Case, fc.constantFrom(1, 2, 3, 2.5, Infinity), (c, cap) => {
    const { candidates } = build(c)
    const out = diversify(shuffle(candidates, c.seed), { diversityCapPerNote: cap })
    assert.deepStrictEqual(ids(out).sort(), ids(candidates).sort())
    const notes = new Set(candidates.map((x) => x.chunk.noteId)).size
    const seen = new Map<string, number>()
    let head = 0
    while (head < out.length && seen.size < notes) {
      const note = out[head]!.chunk.noteId
      seen.set(note, (seen.get(note) ?? 0) + 1)
      assert.isTrue(seen.get(note)! <= Math.max(1, Math.floor(cap)))
      head++
    }
    const inRankOrder = (run: ReadonlyArray<Candidate>) => run.every((x, i) => i === 0 || byScoreDescThenId(run[i - 1]!, x) < 0)
    assert.isTrue(inRankOrder(out.slice(0, head)))
    assert.isTrue(inRankOrder(out.slice(head)))
    if (cap === Infinity) assert.deepStrictEqual(out, sortCandidates(candidates))
  }), RUNS))
})
