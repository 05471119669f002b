import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as ContextPack from "../src/domain/ContextPack.ts"
import { queryTerms } from "../src/text/Words.ts"
import { stem } from "../src/text/Porter.ts"
import { Embedder } from "../src/ports/Embedder.ts"
import { LexicalIndex } from "../src/ports/LexicalIndex.ts"
import { MAX_ECHOED_QUERY_CHARS } from "../src/retrieval/pack.ts"
import { MAX_QUESTION_TERMS } from "../src/retrieval/reduce.ts"
import * as Recall from "../layers/Recall.ts"
import { corpus } from "../test/support/Corpus.ts"
import { chunk } from "../test/support/Fixtures.ts"
import { recall } from "./recall.ts"
import { search } from "./search.ts"

/** The reference layers, with the text each lexical search and each embedding was handed recorded. */
const spied = () => {
  const sent: Array<string> = []
  const full = Recall.reference(questionCorpus)
  const spies = Layer.mergeAll(
    Layer.effect(LexicalIndex, Effect.map(LexicalIndex, (inner) => LexicalIndex.of({
      ...inner,
      search: (text, limit, filter) => Effect.suspend(() => (sent.push(text), inner.search(text, limit, filter)))
    }))),
    // The reference layers' embedder is optional in their type, and present.
    Layer.effect(Embedder, Effect.map(Effect.serviceOption(Embedder), (found) => {
      const inner = Option.getOrThrow(found)
      return Embedder.of({ ...inner, embed: (texts) => Effect.suspend(() => (sent.push(...texts), inner.embed(texts))) })
    }))
  ).pipe(Layer.provide(full))
  return { sent, layer: Layer.merge(full, spies) }
}

// 60 words every chunk holds, 60 no chunk holds, and last `deployctl`, which one chunk holds.
const common = Array.from({ length: 60 }, (_, i) => `common${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)
const questionCorpus = {
  chunks: [
    ...corpus.chunks.map((c) => ({ ...c, text: `${c.text}\n${common.join(" ")}` })),
    ...Array.from({ length: 20 }, (_, i) => chunk({ id: `filler/f${i}.md#s0`, noteId: `filler/f${i}.md`, title: "Filler", text: `Filler > part\nplain filler ${common.join(" ")}` }))
  ],
  edges: corpus.edges
}
const manyTerms = [...common, ...Array.from({ length: 60 }, (_, i) => `absent${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`), "deployctl"].join(" ")

const wellFormed = (pack: ContextPack.ContextPack) => {
  ContextPack.decodeWireSync(JSON.parse(JSON.stringify(ContextPack.toWire(pack))))
  assert.isAtMost(pack.usedTokens, pack.budgetTokens)
  assert.isTrue(pack.claims.length > 0 || pack.gaps.length > 0)
}

describe("question reduction", () => {
  it.effect("recall - every leg is handed at most MAX_QUESTION_TERMS terms, the rarest kept, and the pack says so", () => {
    const { sent, layer } = spied()
    return Effect.gen(function*() {
      assert.isAbove(queryTerms(manyTerms).length, 3 * MAX_QUESTION_TERMS)
      const pack = yield* recall({ text: manyTerms })
      assert.isAbove(sent.length, 0)
      for (const text of sent) {
        const terms = new Set(queryTerms(text))
        assert.isAtMost(terms.size, MAX_QUESTION_TERMS)
        // The one term a single chunk holds is among the kept; one in most chunks is not.
        assert.isTrue(terms.has(stem("deployctl")), text)
        assert.isFalse(terms.has(stem(common.at(-1)!)), text)
        assert.isFalse([...terms].some((term) => term.startsWith("absent")), text)
      }
      const reduced = pack.gaps.filter((gap) => gap.reason === "query_reduced")
      assert.strictEqual(reduced.length, 1)
      assert.match(reduced[0]!.text, new RegExp(`the ${MAX_QUESTION_TERMS} rarest`))
      assert.isTrue(pack.claims.some((claim) => claim.note === "runbooks/rollback.md"))
      wellFormed(pack)
    }).pipe(Effect.provide(layer))
  }, 30_000)

  it.effect("recall - an ordinary question reaches the legs as written, with no reduction reported", () => {
    const { sent, layer } = spied()
    return Effect.gen(function*() {
      const text = "how do I roll back a deploy?"
      const pack = yield* recall({ text })
      assert.deepStrictEqual([...new Set(sent)], [text])
      assert.isFalse(pack.gaps.some((gap) => gap.reason === "query_reduced"))
    }).pipe(Effect.provide(layer))
  }, 30_000)

  it.effect("search - a long query is reduced the same way before its legs run", () => {
    const { sent, layer } = spied()
    return Effect.gen(function*() {
      const response = yield* search({ query: manyTerms })
      for (const text of sent) assert.isAtMost(new Set(queryTerms(text)).size, MAX_QUESTION_TERMS)
      assert.isTrue(response.gaps.some((gap) => gap.startsWith("The question was reduced")))
    }).pipe(Effect.provide(layer))
  }, 30_000)

  it.effect("recall - hostile questions give a well-formed pack within the budget", () =>
    Effect.gen(function*() {
      const hostile = [
        "a".repeat(50_000),
        "検索エンジン".repeat(1_500),
        `${manyTerms} `.repeat(Math.ceil((1 << 20) / manyTerms.length)),
        "rollback ".repeat(5_000),
        `"rollback" NEAR(deploy traffic, 2) OR roll* AND NOT ^release title:steps {text}: (a OR b) - + '' """ `.repeat(60),
        "🔥🚀 rollback 👩‍👩‍👧‍👦 🇬🇧 😀 ".repeat(400)
      ]
      for (const text of hostile) {
        const pack = yield* recall({ text, budgetTokens: 1_000 })
        wellFormed(pack)
        assert.isAtMost(pack.query.length, MAX_ECHOED_QUERY_CHARS)
        assert.isTrue(pack.gaps.some((gap) => gap.reason === "query_reduced"), text.slice(0, 40))
      }
    }).pipe(Effect.provide(Recall.reference(corpus))), 60_000)
})
