import { assert, describe, it } from "@effect/vitest"
import { asksAboutTests, isTestPath } from "./testFiles.ts"

describe("testFiles", () => {
  it("isTestPath - test, spec and bench files, and anything under a test, fixture or bench folder", () => {
    const tests = [
      "src/a.test.ts", "lib/b.spec.js", "bench/dense.bench.ts", "test/x.ts", "tests/y.md", "pkg/__tests__/z.tsx",
      "layers/reference/fixtures/Notes.ts", "spec/fixtures/markdown.md", "layers/sqlite/testing/Fixtures.ts", "benchmarks/run.ts",
      "SRC/A.TEST.TS", "pkg/foo_test.go", "tests/test_parse.py", "lib/test_helper.py", "src/app.e2e-spec.ts", "src/x.test-d.ts",
      "benches/parse.rs", "src/__mocks__/fs.ts", "testdata/a.json", "src/__fixtures__/a.md", "e2e/login.ts",
      "__snapshots__/a.test.ts.snap", "property-tests/arbitraries.ts", "integration_tests/api.rb", "spec/models/user_spec.rb"
    ]
    for (const path of tests) assert.isTrue(isTestPath(path), path)
    const sources = [
      "src/retrieval/adjust.ts", "docs/testing.md", "src/contest.ts", "src/latest/x.ts", "src/attestation.ts", "benchmark.md",
      "src/testFiles.ts", "docs/spec/format.md", "spec/language.md", "src/protest/a.ts", "src/contests/a.ts"
    ]
    for (const path of sources) assert.isFalse(isTestPath(path), path)
  })

  it("asksAboutTests - the question names tests, fixtures, benches or mocks", () => {
    for (const query of ["which test covers the budget?", "how is this tested", "Where are the fixtures?", "run the benchmarks", "is there a mock embedder"]) assert.isTrue(asksAboutTests(query), query)
    for (const query of ["how is the token budget enforced?", "what is the latest contest attestation"]) assert.isFalse(asksAboutTests(query), query)
  })
})
