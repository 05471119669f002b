/**
 * The first pass of retrieval: the lexical, dense, title/path and symbol legs, run concurrently, each under
 * the soft deadline. Recall fuses them into its candidates; search fuses them deeper into a ranking
 * an agent can page. A leg with nothing to run is `skipped`; a failure or a missed deadline is
 * reported, never raised, so one leg's trouble never loses what the others found.
 */
import { Effect, Option } from "effect"
import type { ChunkId } from "../src/domain/Chunk.ts"
import type { LegStatus } from "../src/domain/ContextPack.ts"
import type { Gap } from "../src/domain/Gap.ts"
import { CandidateStore } from "../src/ports/CandidateStore.ts"
import { Embedder } from "../src/ports/Embedder.ts"
import type { IndexHealthReading } from "../src/ports/IndexHealth.ts"
import { LexicalIndex } from "../src/ports/LexicalIndex.ts"
import type { RetrievalFilter } from "../src/ports/RetrievalFilter.ts"
import { SymbolIndex } from "../src/ports/SymbolIndex.ts"
import { VectorIndex, VectorIndexError } from "../src/ports/VectorIndex.ts"
import { underDeadline } from "./deadline.ts"
import { isContentless } from "../src/index/HashingEmbedder.ts"
import { words } from "../src/text/Words.ts"
import type { RankedList } from "../src/retrieval/fuse.ts"
import { TitlePathChannel } from "../src/retrieval/titlePath.ts"

export interface LegResult {
  readonly name: string
  readonly status: LegStatus
  readonly list: RankedList | undefined
  readonly detail?: string
}

/** How deep each leg ranks, and what the title/path channel needs to name a note. */
export interface LegLimits {
  readonly lexicalLimit: number
  readonly denseLimit: number
  readonly titlePathLimit: number
  readonly titlePathMinScore: number
  /** Declarations the symbol leg returns; 0 leaves it out. */
  readonly symbolLimit: number
  readonly softTimeoutMs: number
  readonly stopwords: ReadonlySet<string>
}

const runLeg = <E, R>(
  name: string,
  requested: number,
  softTimeoutMs: number,
  search: Option.Option<Effect.Effect<ReadonlyArray<ChunkId>, E, R>>
): Effect.Effect<LegResult, never, R> => {
  if (Option.isNone(search) || requested <= 0) return Effect.succeed({ name, status: "skipped", list: undefined })
  return Effect.map(underDeadline(search.value, softTimeoutMs), (outcome): LegResult =>
    outcome.status === "done"
      ? { name, status: outcome.value.length === 0 ? "empty" : "ok", list: { leg: name, ids: outcome.value, requested } }
      : { name, status: outcome.status, list: undefined, ...(outcome.status === "failed" ? { detail: outcome.detail } : {}) }
  )
}

/** The gap a failed or late stage leaves in a pack. */
export const legGap = (leg: { readonly name: string; readonly status: LegStatus; readonly detail?: string | undefined }): Gap => ({
  reason: "leg_failed",
  text: leg.status === "timed_out"
    ? `The ${leg.name} stage ran out of time; this pack is missing what it would have found.`
    : `The ${leg.name} stage failed${leg.detail === undefined ? "" : ` (${leg.detail})`}; this pack is missing what it would have found.`
})

/** The four legs over `text`, in the order recall reports them; the symbol leg is skipped at `symbolLimit` 0 or without an index of declarations. */
export const firstPass = Effect.fn("legs.firstPass")(function*(text: string, filter: RetrievalFilter, limits: LegLimits, reading: IndexHealthReading) {
  const lexical = yield* LexicalIndex
  const store = yield* CandidateStore
  const titlePath = yield* TitlePathChannel
  const embedder = yield* Effect.serviceOption(Embedder)
  const vectors = yield* Effect.serviceOption(VectorIndex)
  const symbols = yield* Effect.serviceOption(SymbolIndex)

  // A question with no words has nothing to embed: its vector would sit at cosine 0 from every
  // chunk and rank the corpus arbitrarily. So has one whose every word the model never saw (its
  // vector is the reserved axis alone). Likewise a hit at cosine 0 or below says nothing.
  const hasWords = words(text).length > 0
  const dense = Option.isSome(embedder) && Option.isSome(vectors) && hasWords
    ? Option.some(Effect.gen(function*() {
      const [vector] = yield* embedder.value.embed([text])
      if (vector === undefined || isContentless(vector)) return []
      const hits = yield* vectors.value.nearest(vector, limits.denseLimit, filter)
      return hits.filter((hit) => hit.score > 0).map((hit) => hit.id)
    }))
    // An index that cannot serve its vectors on this platform fails the leg in every pack, so each says so.
    : Option.isNone(vectors) && reading.denseUnavailable !== undefined
    ? Option.some(Effect.fail(new VectorIndexError({ reason: "extension_missing", detail: reading.denseUnavailable })))
    : Option.none()

  return yield* Effect.all([
    runLeg("lexical", limits.lexicalLimit, limits.softTimeoutMs, Option.some(
      Effect.map(lexical.search(text, limits.lexicalLimit, filter), (hits) => hits.map((hit) => hit.id))
    )),
    runLeg("dense", limits.denseLimit, limits.softTimeoutMs, dense),
    runLeg("title_path", limits.titlePathLimit, limits.softTimeoutMs, Option.some(
      Effect.map(store.notes(filter), (notes) =>
        titlePath.name(text, notes, { titlePathLimit: limits.titlePathLimit, titlePathMinScore: limits.titlePathMinScore, stopwords: limits.stopwords })
          .map((named) => named.chunk))
    )),
    // A declaration's chunk once, at its best match: the leg ranks chunks as the others do.
    runLeg("symbol", limits.symbolLimit, limits.softTimeoutMs, Option.map(symbols, (index) =>
      Effect.map(index.search(text, limits.symbolLimit, filter, limits.stopwords), (matches) => [...new Set(matches.map((match) => match.chunk))])
    ))
  ], { concurrency: "unbounded" })
})
