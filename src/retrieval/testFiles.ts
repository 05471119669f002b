/**
 * Tests, fixtures and benchmarks: files that exercise the code rather than define it. They repeat
 * the code's names and the docs' words, so they match a question about code as well as the code
 * does, and crowd it out (a fixture of software notes took all five top places for "which setting
 * bounds the claims a pack holds?"). Stage 7 weighs them down unless the question asks about them.
 */

// `x.test.ts`, `x.spec.js`, `x.bench.ts`, or anything under a test, fixture or bench folder.
const TEST_PATH = /(^|\/)[^/]*\.(test|spec|bench)\.[a-z0-9]+$|(^|\/)(tests?|__tests__|spec|fixtures?|testing|bench(marks?)?)\//

const TEST_WORDS = /\b(tests?|tested|testing|specs?|fixtures?|bench(es|marks?)?|mocks?|stubs?)\b/i

/** Whether `path` (repository-relative) is a test, fixture or benchmark file. */
export const isTestPath = (path: string): boolean => TEST_PATH.test(path.toLowerCase())

/** Whether the question itself is about tests, fixtures or benchmarks. */
export const asksAboutTests = (query: string): boolean => TEST_WORDS.test(query)
