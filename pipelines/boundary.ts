/**
 * The pipeline boundary's safety net for contract 2. The packer already guarantees that a pack with
 * no claims carries a gap; this re-checks whatever reaches the caller, with the same fallback text,
 * because the failure it guards against is silent: nothing throws, the agent is handed nothing and
 * told nothing.
 */
import { Effect } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import { RetrievalConfig } from "../src/RetrievalConfig.ts"
import { ensureNeverSilent } from "../src/retrieval/pack.ts"

export const neverSilent = Effect.fn("boundary.neverSilent")(function*<E, R>(pack: Effect.Effect<ContextPack, E, R>): Effect.fn.Return<ContextPack, E, R> {
  const { fallbackGapText } = yield* RetrievalConfig
  return ensureNeverSilent(yield* pack, fallbackGapText)
})
