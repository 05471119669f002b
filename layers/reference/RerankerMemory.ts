/**
 * Reference Reranker layers. `identity` always abstains, so a pipeline with it must produce the
 * same bytes as one that skipped the rerank. `lexicalOverlap` scores the share of the query's
 * distinct analysed terms a passage contains: cheap, deterministic, and only for ablations.
 */
import { Effect, Layer, Option } from "effect"
import { queryTerms, terms } from "../../src/text/Words.ts"
import { Reranker } from "../../src/ports/Reranker.ts"

export const makeIdentity = (): Reranker["Service"] =>
  Reranker.of({
    id: "cairn/identity",
    score: () => Effect.succeed(Option.none())
  })

export const layerIdentity: Layer.Layer<Reranker> = Layer.sync(Reranker, makeIdentity)

export const makeLexicalOverlap = (): Reranker["Service"] =>
  Reranker.of({
    id: "cairn/lexical-overlap",
    score: (query, passages) =>
      Effect.sync(() => {
        const wanted = queryTerms(query)
        // A query with no terms gives no basis for an opinion.
        if (wanted.length === 0) return Option.none()
        return Option.some(passages.map((passage) => {
          const present = new Set(terms(passage.text))
          let hits = 0
          for (const term of wanted) if (present.has(term)) hits++
          return hits / wanted.length
        }))
      })
  })

export const layerLexicalOverlap: Layer.Layer<Reranker> = Layer.sync(Reranker, makeLexicalOverlap)
