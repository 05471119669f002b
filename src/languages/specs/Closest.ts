/** Picking among files a reference may name, for the languages that resolve by path suffix. */
import { compareIds } from "../../domain/Ranking.ts"

const sharedPrefix = (a: string, b: string): number => {
  const left = a.split("/")
  const right = b.split("/")
  let n = 0
  while (n < left.length - 1 && n < right.length - 1 && left[n] === right[n]) n++
  return n
}

/**
 * The candidate sharing the most leading directories with `from`, then the shortest, then the first
 * in code-unit order: the same answer whatever order the candidates came in.
 */
export const closest = (from: string, candidates: ReadonlyArray<string>): string | undefined =>
  [...candidates].sort((a, b) =>
    sharedPrefix(from, b) - sharedPrefix(from, a) || a.split("/").length - b.split("/").length || compareIds(a, b)
  )[0]
