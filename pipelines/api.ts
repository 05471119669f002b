/**
 * The Promise API, for callers who do not use Effect: `createRecall(layer)` builds the layer once and
 * answers questions until closed. A typed failure rejects the promise with the same tagged error
 * (`error._tag === "InvalidInput"`), never with a wrapper.
 */
import { type Layer, ManagedRuntime } from "effect"
import type { ContextPack } from "../src/domain/ContextPack.ts"
import type { QueryFilters } from "../src/domain/Query.ts"
import { recall, type RecallServices } from "./recall.ts"
import { settle } from "./settle.ts"

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
    recall: (text, options = {}) => settle(runtime.runPromiseExit(recall({ ...options, text }))),
    close: () => runtime.dispose()
  }
}

export type { RecallServices }
