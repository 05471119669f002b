/**
 * Tests, fixtures and benchmarks by their paths: files that exercise the code rather than define it,
 * and which file a test is about. Discovery links a test to its subject; retrieval weighs tests down.
 */

// By name: `x.test.ts`, `x.spec.js`, `x.bench.ts`, `x.e2e-spec.ts`, `x.test-d.ts`, Go's `x_test.go`,
// Python's `test_x.py`.
const TEST_NAME = /(^|\/)[^/]*\.(test|spec|bench|e2e-spec|test-d)\.[a-z0-9]+$|(^|\/)[^/]+_test\.[a-z0-9]+$|(^|\/)test_[^/]+\.py$/
// By folder, whatever the file: test and fixture folders, snapshots, mocks, benches, `*-tests`.
const TEST_FOLDER = /(^|\/)(tests?|__tests__|__mocks__|__fixtures__|__snapshots__|testdata|fixtures?|testing|e2e|bench|benches|benchmarks?|[a-z0-9]+[-_]tests?)\//
// `spec/` holds RSpec's tests, but also specifications written as documents.
const SPEC_FOLDER = /(^|\/)spec\//
const DOCUMENT = /\.(md|mdx|markdown|rst|adoc|txt)$/

/** Whether `path` (repository-relative) is a test, fixture or benchmark file. */
export const isTestPath = (path: string): boolean => {
  const lower = path.toLowerCase()
  return TEST_NAME.test(lower) || TEST_FOLDER.test(lower) || (SPEC_FOLDER.test(lower) && !DOCUMENT.test(lower))
}

/** A file's name without its directory, its extension and any test marker, lower-cased. */
export const subjectName = (path: string): string => {
  const base = (path.slice(path.lastIndexOf("/") + 1)).toLowerCase()
  const dot = base.lastIndexOf(".")
  const stem = dot > 0 ? base.slice(0, dot) : base
  return stem.replace(/\.(test|spec|e2e-spec|test-d)$/, "").replace(/_test$/, "").replace(/^test_/, "")
}

/**
 * Whether `test` is a test of `subject`: a test file and a file that is not one, under one name once
 * the test marker is off (`pack.test.ts` and `pack.ts`, `cart_test.go` and `cart.go`,
 * `test_invoice.py` and `invoice.py`).
 */
export const isTestOf = (test: string, subject: string): boolean =>
  isTestPath(test) && !isTestPath(subject) && subjectName(test) === subjectName(subject)
