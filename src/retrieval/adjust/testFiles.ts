/**
 * Tests, fixtures and benchmarks (`src/source/TestFiles.ts` tells them by path) repeat the code's
 * names and the docs' words, so they match a question about code as well as the code does, and
 * crowd it out (a fixture of software notes took all five top places for "which setting bounds the
 * claims a pack holds?"). Stage 7 and search weigh them down unless the question asks about them.
 */
import { isTestPath } from "../../source/TestFiles.ts"

const TEST_WORDS = /\b(tests?|tested|testing|specs?|fixtures?|bench(es|marks?)?|mocks?|stubs?)\b/i

/** Whether the question itself is about tests, fixtures or benchmarks. */
export const asksAboutTests = (query: string): boolean => TEST_WORDS.test(query)

/** The weight of a file's passage for `query`: `testFileWeight` for a test file unless the query asks about tests, else 1. */
export const testFileWeigher = (query: string, testFileWeight: number): ((path: string) => number) =>
  testFileWeight === 1 || asksAboutTests(query) ? () => 1 : (path) => (isTestPath(path) ? testFileWeight : 1)
