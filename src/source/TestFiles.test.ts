import { assert, describe, it } from "@effect/vitest"
import { isTestOf, isTestPath, subjectName } from "./TestFiles.ts"

describe("TestFiles", () => {
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

  it("subjectName - the name without directory, extension and test marker", () => {
    assert.strictEqual(subjectName("src/retrieval/pack.test.ts"), "pack")
    assert.strictEqual(subjectName("web/Cart.spec.tsx"), "cart")
    assert.strictEqual(subjectName("go/cart/cart_test.go"), "cart")
    assert.strictEqual(subjectName("tests/test_invoice.py"), "invoice")
    assert.strictEqual(subjectName("Makefile"), "makefile")
  })

  it("isTestOf - a test and a non-test under one name, in that order only", () => {
    assert.isTrue(isTestOf("src/pack.test.ts", "src/pack.ts"))
    assert.isTrue(isTestOf("test/retrieval/pack.test.ts", "src/retrieval/pack.ts"))
    assert.isTrue(isTestOf("go/cart/cart_test.go", "go/cart/cart.go"))
    assert.isTrue(isTestOf("tests/test_invoice.py", "app/invoice.py"))
    assert.isFalse(isTestOf("src/pack.ts", "src/pack.test.ts"))
    assert.isFalse(isTestOf("src/pack.test.ts", "src/packer.ts"))
    assert.isFalse(isTestOf("src/pack.test.ts", "test/pack.ts"))
  })
})
