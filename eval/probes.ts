/**
 * Safety probes the gate runs beside the question set: an empty knowledge base answers three
 * questions with a gap and no claim, and content deleted from the corpus never comes back.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Recall from "../layers/Recall.ts"
import { recall } from "../pipelines/recall.ts"
import type { EvalCorpus } from "./Corpus.ts"
import type { GateCheck } from "./gates.ts"
import { kindOf, type Question } from "./Question.ts"

const EMPTY_PROBES = ["how do we deploy?", "who owns the billing service?", "why did we choose this database?"]

const runOn = (layer: Layer.Layer<Recall.RecallLayerServices, unknown>, texts: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    const runtime = ManagedRuntime.make(layer)
    try {
      const packs = []
      for (const text of texts) packs.push(await runtime.runPromise(recall({ text })))
      return packs
    } finally {
      await runtime.dispose()
    }
  })

export const emptyKnowledgeBaseProbes = Effect.gen(function*() {
  const packs = yield* runOn(Recall.reference({ chunks: [], edges: [] }, { dense: "none" }), EMPTY_PROBES)
  return packs.map((pack, i): GateCheck => ({
    name: `empty-knowledge-base-${i + 1}`,
    pass: pack.claims.length === 0 && pack.gaps.length > 0,
    detail: `${pack.claims.length} claims, ${pack.gaps.length} gaps for "${EMPTY_PROBES[i]}"`
  }))
})

/** Remove the primary note of the first answerable question, ask it again: none of that note may return. */
export const deletedContentProbe = Effect.fn("probes.deletedContentProbe")(function*(corpus: EvalCorpus, questions: ReadonlyArray<Question>) {
    const question = questions.find((q) => kindOf(q) === "positive" && typeof q.primary === "string")
    if (question === undefined) return { name: "deleted-content-absent", pass: true, detail: "no answerable question to probe with" }
    const deleted = question.primary as string
    const remaining = { chunks: corpus.chunks.filter((c) => c.noteId !== deleted), edges: corpus.edges }
    const [pack] = yield* runOn(Recall.reference(remaining, { dense: "none" }), [question.question])
    const leaked = pack!.claims.filter((c) => c.note === deleted).length
    return { name: "deleted-content-absent", pass: leaked === 0, detail: `${deleted} removed; ${leaked} of its claims came back` } satisfies GateCheck
  })
