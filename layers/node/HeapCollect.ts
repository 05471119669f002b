/**
 * A full garbage collection of this thread's heap, asked for where a long run has just let go of
 * most of what it held. V8 sets the size its heap may grow to from what was live at its last full
 * collection; an index run that held a whole snapshot at that moment (230 MB on 12,000 files) was
 * then let grow to 550 MB of mostly garbage before the next one, although under 100 MB was live
 * while the chunks were written and embedded. Collecting at the run's own boundaries keeps the limit
 * near what is live. The collector is taken from a context made while `--expose-gc` is set for that
 * moment alone, so no other code of the process sees a `gc` it did not ask for.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

let collector: ((options?: object) => void) | null | undefined

const collectorOf = (): ((options?: object) => void) | null => {
  if (collector !== undefined) return collector
  try {
    const exposed = typeof (globalThis as { gc?: unknown }).gc === "function"
    if (!exposed) setFlagsFromString("--expose-gc")
    const gc = runInNewContext("gc") as unknown
    if (!exposed) setFlagsFromString("--no-expose-gc")
    collector = typeof gc === "function" ? (gc as (options?: object) => void) : null
  } catch {
    collector = null
  }
  return collector
}

/**
 * Collects this thread's heap in full, where the platform allows it; otherwise nothing. `release`
 * also hands the freed pages back to the system, as V8 does under memory pressure; it costs several
 * collections and may drop compiled code, so it is for the one boundary where most of the heap
 * goes at once (a scan's snapshot written aside).
 */
export const collectHeap = (options?: { readonly release?: boolean }): void => {
  collectorOf()?.({ type: "major", execution: "sync", flavor: options?.release === true ? "last-resort" : "regular" })
}
