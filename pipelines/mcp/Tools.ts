/**
 * The MCP tools: `ask`, `search`, `lookup` and `status`, each returning exactly what its CLI command
 * prints with `--json`. Arguments are decoded by cairn's own strict decoders inside the handler, so
 * a bad argument comes back as a tool error naming the field (which a model can correct), not as a
 * protocol error; the input schemas the client sees are generated from the same Effect Schemas.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Clock, Effect, Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import * as ContextPack from "../../src/domain/ContextPack.ts"
import { NoteType } from "../../src/domain/Chunk.ts"
import { BudgetTokens } from "../../src/domain/Query.ts"
import { IsoInstant } from "../../src/domain/Instant.ts"
import { fromSchemaError, type InvalidInput } from "../../src/domain/InvalidInput.ts"
import { lookup, LookupRequest, LookupResponse } from "../lookup.ts"
import { recall } from "../recall.ts"
import { search, SearchRequest, SearchResponse } from "../search.ts"
import { recallShadowed } from "../shadowLog.ts"
import { statusReport } from "../statusReport.ts"
import { WarmIndex } from "./WarmIndex.ts"

export const AskRequest = Schema.Struct({
  query: Schema.String.annotate({ description: "The question, in words: what the agent needs to know or change" }),
  budgetTokens: Schema.optionalKey(BudgetTokens.annotate({ description: "Tokens the pack's claims may use, 0 to 32000 (default 4000)" })),
  scope: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "Only files under these repository-relative path prefixes" })),
  types: Schema.optionalKey(Schema.Array(NoteType).annotate({ description: "Only these note types" })),
  since: Schema.optionalKey(IsoInstant.annotate({ description: "ISO date: only words written on or after it" })),
  explain: Schema.optionalKey(Schema.Boolean.annotate({ description: "Add score components and stage timings" }))
})
export type AskRequest = typeof AskRequest.Type

const decodeAskStrict = Schema.decodeUnknownEffect(AskRequest)

/** The recall input an `ask` call names, decoded strictly like every other caller's. */
export const askQuery = (input: unknown): Effect.Effect<unknown, InvalidInput> =>
  decodeAskStrict(input, { onExcessProperty: "error" }).pipe(
    Effect.mapError((error) => fromSchemaError("ask", error)),
    Effect.map((request) => ({
      text: request.query,
      ...(request.budgetTokens === undefined ? {} : { budgetTokens: request.budgetTokens }),
      ...(request.explain === undefined ? {} : { explain: request.explain }),
      filters: {
        ...(request.scope === undefined || request.scope.length === 0 ? {} : { paths: request.scope }),
        ...(request.types === undefined ? {} : { types: request.types }),
        ...(request.since === undefined ? {} : { since: request.since })
      }
    }))
  )

/** One line a model can act on; the field or the fix is in it. */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

const failure = (error: unknown): ToolFailure =>
  new ToolFailure({ detail: (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 1_000) })

/** The JSON Schema an MCP client validates arguments against, from the Schema the handler decodes with. */
export const inputSchemaOf = (schema: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(schema)
  const definitions = Object.keys(document.definitions).length === 0 ? {} : { $defs: document.definitions }
  return { ...(document.schema as Record<string, unknown>), additionalProperties: false, ...definitions }
}

const ServerStatus = Schema.Record(Schema.String, Schema.Unknown)

const readOnly = <T extends Tool.Any>(tool: T): T =>
  tool.annotate(Tool.Readonly, true).annotate(Tool.Destructive, false).annotate(Tool.OpenWorld, false) as T

export const Ask = readOnly(Tool.dynamic("ask", {
  description: "Answer a question about this repository with a ContextPack: ranked passages with their file, lines and provenance, " +
    "fitted to a token budget, plus the conflicts between them and the gaps the repository cannot answer. " +
    "Use it when you need to understand how something works or why; use search to find which files to open.",
  parameters: inputSchemaOf(AskRequest),
  success: ContextPack.ContextPack,
  failure: ToolFailure
}))

export const Search = readOnly(Tool.dynamic("search", {
  description: "Rank the files of this repository that match a query (or its chunks and symbols, with kinds), " +
    "each with its path, lines, title and the lines that match. Page with offset and limit (offset + limit at most 200). " +
    "Use it to find where something lives before opening or editing files.",
  parameters: inputSchemaOf(SearchRequest),
  success: SearchResponse,
  failure: ToolFailure
}))

export const Lookup = readOnly(Tool.dynamic("lookup", {
  description: "Describe one file, directory, package or symbol of this repository: what it is, what it imports and what imports it " +
    "(neighbours within depth hops, by relation), the documents that cover or mention it, and evidence with content hashes. " +
    "Name exactly one of id, path, symbol or ref (a ref or chunk from ask or search). budgetTokens trims it to fit.",
  parameters: inputSchemaOf(LookupRequest),
  success: LookupResponse,
  failure: ToolFailure
}))

export const Status = readOnly(Tool.dynamic("status", {
  description: "The health of this repository's index: when it was built, chunks and embeddings, files changed since the build, " +
    "and how the server's background refreshes went.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  success: ServerStatus,
  failure: ToolFailure
}))

export const CairnToolkit = Toolkit.make(Ask, Search, Lookup, Status)

/** `shadow`: the candidate retrieval overrides of `cairn.config.json`, run beside every `ask` (pipelines/shadow.ts). */
export const handlers = (root: string, shadow?: unknown) =>
  CairnToolkit.toLayer(Effect.gen(function*() {
    const warm = yield* WarmIndex
    return CairnToolkit.of({
      ask: (params) =>
        askQuery(params).pipe(
          Effect.flatMap((query) =>
            warm.use((generation) =>
              (shadow === undefined ? recall(query) : recallShadowed(root, query, shadow).pipe(Effect.provide(NodeServices.layer))).pipe(
                Effect.provide(generation.context)
              )
            )
          ),
          Effect.mapError(failure)
        ),
      search: (params) => warm.use((generation) => search(params).pipe(Effect.provide(generation.context))).pipe(Effect.mapError(failure)),
      lookup: (params) =>
        warm.use((generation) => lookup(params, generation.snapshot).pipe(Effect.provide(generation.context))).pipe(Effect.mapError(failure)),
      status: () =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const report = yield* statusReport(root, now)
          return { ...report, server: yield* warm.state }
        }).pipe(Effect.provide(NodeServices.layer), Effect.mapError(failure))
    })
  }))
