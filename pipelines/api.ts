/**
 * The Promise API, for callers who do not use Effect: `createRecall(layer)` builds the layer once and
 * answers questions until closed. A typed failure rejects the promise with the same tagged error
 * (`error._tag === "InvalidInput"`), never with a wrapper.
 */
import { Cause, Exit, type Layer, ManagedRuntime } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import type { QueryFilters } from "../src/domain/Query.ts"
import { recall, type RecallServices } from "./recall.ts"

export interface RecallOptions {
  readonly budgetTokens?: number
  readonly filters?: QueryFilters
  readonly explain?: boolean
}

export interface Recall {
  /** The pack for `text`, camelCase; `ContextPack.serialise` gives the wire JSON. */
  readonly recall: (text: string, options?: RecallOptions) => Promise<ContextPack>
  /** Releases whatever the layer holds; later calls reject. */
  readonly close: () => Promise<void>
}

export const createRecall = <E>(layer: Layer.Layer<RecallServices, E>): Recall => {
  const runtime = ManagedRuntime.make(layer)
  return {
    recall: async (text, options = {}) => {
      const exit = await runtime.runPromiseExit(recall({ ...options, text }))
      if (Exit.isSuccess(exit)) return exit.value
      // Reject with the error itself, so callers can branch on its `_tag`.
      throw Cause.squash(exit.cause)
    },
    close: () => runtime.dispose()
  }
}

export type { RecallServices }
