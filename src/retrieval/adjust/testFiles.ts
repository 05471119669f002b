/**
 * Tests, fixtures and benchmarks: files that exercise the code rather than define it. They repeat
 * the code's names and the docs' words, so they match a question about code as well as the code
 * does, and crowd it out (a fixture of software notes took all five top places for "which setting
 * bounds the claims a pack holds?"). Stage 7 and search weigh them down unless the question asks about them.
 */

// By name: `x.test.ts`, `x.spec.js`, `x.bench.ts`, `x.e2e-spec.ts`, `x.test-d.ts`, Go's `x_test.go`,
// Python's `test_x.py`.
const TEST_NAME = /(^|\/)[^/]*\.(test|spec|bench|e2e-spec|test-d)\.[a-z0-9]+$|(^|\/)[^/]+_test\.[a-z0-9]+$|(^|\/)test_[^/]+\.py$/
// By folder, whatever the file: test and fixture folders, snapshots, mocks, benches, `*-tests`.
const TEST_FOLDER = /(^|\/)(tests?|__tests__|__mocks__|__fixtures__|__snapshots__|testdata|fixtures?|testing|e2e|bench|benches|benchmarks?|[a-z0-9]+[-_]tests?)\//
// `spec/` holds RSpec's tests, but also specifications written as documents.
const SPEC_FOLDER = /(^|\/)spec\//
const DOCUMENT = /\.(md|mdx|markdown|rst|adoc|txt)$/

const TEST_WORDS = /\b(tests?|tested|testing|specs?|fixtures?|bench(es|marks?)?|mocks?|stubs?)\b/i

/** Whether `path` (repository-relative) is a test, fixture or benchmark file. */
export const isTestPath = (path: string): boolean => {
  const lower = path.toLowerCase()
  return TEST_NAME.test(lower) || TEST_FOLDER.test(lower) || (SPEC_FOLDER.test(lower) && !DOCUMENT.test(lower))
}

/** Whether the question itself is about tests, fixtures or benchmarks. */
export const asksAboutTests = (query: string): boolean => TEST_WORDS.test(query)

/** The weight of a file's passage for `query`: `testFileWeight` for a test file unless the query asks about tests, else 1. */
export const testFileWeigher = (query: string, testFileWeight: number): ((path: string) => number) =>
  testFileWeight === 1 || asksAboutTests(query) ? () => 1 : (path) => (isTestPath(path) ? testFileWeight : 1)
