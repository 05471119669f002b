import { assert, describe, it } from "@effect/vitest"
import { asksAboutTests, isTestPath } from "./testFiles.ts"

describe("testFiles", () => {
  it("isTestPath - test, spec and bench files, and anything under a test, fixture or bench folder", () => {
    for (const path of ["src/a.test.ts", "lib/b.spec.js", "bench/dense.bench.ts", "test/x.ts", "tests/y.md", "pkg/__tests__/z.tsx", "layers/reference/fixtures/Notes.ts", "spec/fixtures/markdown.md", "src/testing/Fake.ts", "benchmarks/run.ts", "SRC/A.TEST.TS"]) {
      assert.isTrue(isTestPath(path), path)
    }
    for (const path of ["src/retrieval/adjust.ts", "docs/testing.md", "src/contest.ts", "src/latest/x.ts", "src/attestation.ts", "benchmark.md", "src/testFiles.ts"]) {
      assert.isFalse(isTestPath(path), path)
    }
  })

  it("asksAboutTests - the question names tests, fixtures, benches or mocks", () => {
    for (const query of ["which test covers the budget?", "how is this tested", "Where are the fixtures?", "run the benchmarks", "is there a mock embedder"]) assert.isTrue(asksAboutTests(query), query)
    for (const query of ["how is the token budget enforced?", "what is the latest contest attestation"]) assert.isFalse(asksAboutTests(query), query)
  })
})
