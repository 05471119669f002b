/**
 * Heap and stack limits for cairn's worker threads. V8 sizes a thread's young generation from the
 * machine's memory (128 MB on a 24 GB host), and a worker that allocates as fast as tokenising and parsing do
 * fills all of it between collections; the pages stay with the process even after the worker
 * exits. A 16 MB young generation trained the generated repository's model no slower and cut the
 * training worker's share of peak memory from about 340 MB to 215 MB. Only the young generation is
 * limited: capping the old one would turn a large input into a worker crash.
 *
 * The stack is 32 MB rather than Node's 4 MB: oxc-parser recurses natively on the worker's stack,
 * and a process crashes rather than throws when it overflows. Discovery's depth guard keeps files
 * well inside 4 MB; the larger stack is margin for a construct it under-counts. Only the pages a
 * thread touches are committed, so an idle reserve costs no memory.
 */
import type { ResourceLimits } from "node:worker_threads"

export const WORKER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 16, stackSizeMb: 32 }
