/**
 * Every elementary cycle of a directed graph, up to a bound: Johnson's algorithm (1975). Vertices
 * are numbered; each cycle is found exactly once, from its lowest-numbered vertex, and listed
 * starting there. Between two cycles found the search costs at most O(n + e), so a bounded search
 * stays bounded in time even when a graph has exponentially many cycles.
 */
import { stronglyConnected } from "./StronglyConnected.ts"

export interface CycleSearch {
  /** Each cycle's vertices in order, starting from its lowest; the edge back to the start is implied. */
  readonly cycles: ReadonlyArray<ReadonlyArray<number>>
  /** True when more cycles exist than the bound let through. */
  readonly truncated: boolean
}

const isCycle = (adjacency: ReadonlyArray<ReadonlyArray<number>>, component: ReadonlyArray<number>): boolean =>
  component.length > 1 || adjacency[component[0]!]!.includes(component[0]!)

/** Adjacency lists must hold each edge once; their order decides which cycles a bound keeps. */
export const elementaryCycles = (adjacency: ReadonlyArray<ReadonlyArray<number>>, limit: number): CycleSearch => {
  const n = adjacency.length
  const cycles: Array<Array<number>> = []
  const blocked = new Uint8Array(n)
  const inComponent = new Uint8Array(n)
  // blockers[w]: vertices to unblock when w is unblocked (Johnson's B lists).
  const blockers: Array<Set<number>> = Array.from({ length: n }, () => new Set())
  const unblock = (u: number) => {
    const work = [u]
    while (work.length > 0) {
      const x = work.pop()!
      if (blocked[x] === 0) continue
      blocked[x] = 0
      for (const w of blockers[x]!) work.push(w)
      blockers[x]!.clear()
    }
  }
  let s = 0
  while (s < n) {
    // The cyclic component holding the lowest vertex, among the vertices numbered s or more.
    let least: ReadonlyArray<number> | undefined
    for (const component of stronglyConnected(adjacency, s)) {
      if (isCycle(adjacency, component) && (least === undefined || component[0]! < least[0]!)) least = component
    }
    if (least === undefined) break
    s = least[0]!
    inComponent.fill(0)
    for (const v of least) {
      inComponent[v] = 1
      blocked[v] = 0
      blockers[v]!.clear()
    }
    const path = [s]
    blocked[s] = 1
    const frames = [{ v: s, next: 0, found: false }]
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!
      const edges = adjacency[frame.v]!
      if (frame.next < edges.length) {
        const w = edges[frame.next]!
        frame.next += 1
        if (inComponent[w] === 0) continue
        if (w === s) {
          if (cycles.length === limit) return { cycles, truncated: true }
          cycles.push([...path])
          frame.found = true
        } else if (blocked[w] === 0) {
          path.push(w)
          blocked[w] = 1
          frames.push({ v: w, next: 0, found: false })
        }
        continue
      }
      frames.pop()
      path.pop()
      if (frame.found) {
        unblock(frame.v)
        const caller = frames[frames.length - 1]
        if (caller !== undefined) caller.found = true
      } else {
        for (const w of edges) if (inComponent[w] === 1) blockers[w]!.add(frame.v)
      }
    }
    s += 1
  }
  return { cycles, truncated: false }
}
