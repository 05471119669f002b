/**
 * Shadow mode: the shipped pipeline answers, and a candidate configuration answers the same
 * question beside it, so a change can be watched on real questions before it becomes the default.
 * The caller gets the stable pack alone; the record says what each returned that the other did not.
 * The candidate runs after the stable answer, on the same index and clock, with its own packer
 * (which reads the configuration it is built with); a candidate that fails is recorded, never
 * raised, so the shadow can cost an answer nothing but time.
 */
import { Effect, Layer, Schema } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import * as Pack from "../src/retrieval/pack.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import type { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { TokenCounter } from "../src/ports/TokenCounter.ts"
import { recall, type RecallError, type RecallServices } from "./recall.ts"

export const ShadowRecord = Schema.Struct({
  query: Schema.String,
  /** Claim refs of each pack, in the order published. */
  stable: Schema.Array(Schema.String),
  candidate: Schema.Array(Schema.String),
  /** Refs one pack holds and the other does not, in that pack's order. */
  stableOnly: Schema.Array(Schema.String),
  candidateOnly: Schema.Array(Schema.String),
  /** Whether both packs put the same claim first (false when either is empty). */
  sameFirst: Schema.Boolean,
  /** Gap reasons of each pack, in order. */
  stableGaps: Schema.Array(Schema.String),
  candidateGaps: Schema.Array(Schema.String),
  /** Why the candidate gave no pack, when it did not. */
  candidateError: Schema.optionalKey(Schema.String)
})
export type ShadowRecord = typeof ShadowRecord.Type

const refsOf = (pack: ContextPack | undefined): ReadonlyArray<string> => pack?.claims.map((claim) => claim.ref) ?? []

/** What two packs for one question returned that the other did not. */
export const compareShadow = (query: string, stable: ContextPack, candidate: ContextPack | undefined, candidateError?: string): ShadowRecord => {
  const stableRefs = refsOf(stable)
  const candidateRefs = refsOf(candidate)
  const inStable = new Set(stableRefs)
  const inCandidate = new Set(candidateRefs)
  return {
    query,
    stable: stableRefs,
    candidate: candidateRefs,
    stableOnly: stableRefs.filter((ref) => !inCandidate.has(ref)),
    candidateOnly: candidateRefs.filter((ref) => !inStable.has(ref)),
    sameFirst: stableRefs.length > 0 && stableRefs[0] === candidateRefs[0],
    stableGaps: stable.gaps.map((gap) => gap.reason),
    candidateGaps: candidate?.gaps.map((gap) => gap.reason) ?? [],
    ...(candidateError === undefined ? {} : { candidateError })
  }
}

/**
 * Recall with the configuration provided, then again with `candidate` (overrides over that
 * configuration, checked as `RetrievalConfig.resolve` checks them). A bad candidate fails here,
 * before anything runs, with the field it names.
 */
export const shadowRecall = Effect.fn("shadowRecall")(function*(
  input: unknown,
  candidate: unknown
): Effect.fn.Return<{ readonly pack: ContextPack; readonly record: ShadowRecord }, RecallError | InvalidInput, RecallServices | TokenCounter> {
  const base = yield* RetrievalConfig.RetrievalConfig
  const candidateConfig = yield* RetrievalConfig.resolve(candidate, base)
  const pack = yield* recall(input)
  const shadow = yield* recall(input).pipe(
    // Fresh: layers are shared by reference, and the one built for the stable pack holds its configuration.
    Effect.provide(Layer.fresh(Pack.layer)),
    Effect.provideService(RetrievalConfig.RetrievalConfig, candidateConfig),
    Effect.map((pack) => ({ pack, error: undefined })),
    Effect.catch((error) => Effect.succeed({ pack: undefined, error: error.message }))
  )
  return { pack, record: compareShadow(pack.query, pack, shadow.pack, shadow.error) }
})
