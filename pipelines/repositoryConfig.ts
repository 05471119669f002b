/**
 * `cairn.config.json` at a repository's root: the settings the command line applies to that
 * repository, kept with it so every run and every person indexes and answers it alike. Each part
 * is optional and checked before anything runs; a file that is not JSON, an unknown key or a value
 * out of range fails with one `InvalidInput` naming the file and the field.
 *
 * ```json
 * {
 *   "chunking": { "targetTokens": 250, "agentPatterns": ["[bot]", "renovate"] },
 *   "discovery": { "exclude": ["fixtures/"], "unredacted": ["docs/example-keys.md"] },
 *   "retrieval": { "rerankLimit": 16 },
 *   "shadow": { "retrieval": { "publishCapPerNote": 2 } },
 *   "models": { "embedder": { "kind": "ollama", "url": "http://localhost:11434", "model": "nomic-embed-text", "dimensions": 768 } }
 * }
 * ```
 */
import { Effect, FileSystem, Option, Path, Schema } from "effect"
import type { PlatformError } from "effect"
import { fromSchemaError, InvalidInput } from "../src/domain/InvalidInput.ts"
import * as ChunkingConfig from "../src/index/chunk/ChunkingConfig.ts"
import * as ModelConfig from "../layers/http-models/ModelConfig.ts"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"

export const CONFIG_FILE = "cairn.config.json"

const ConfigFile = Schema.Struct({
  /** The chunk token target and the agent author patterns (see `ChunkingConfig`). */
  chunking: Schema.optionalKey(ChunkingConfig.ChunkingConfig),
  /**
   * Which files a scan reads beyond `.gitignore`, and whose secrets it keeps as written
   * (`unredacted`): gitignore-style patterns.
   */
  discovery: Schema.optionalKey(Schema.Struct({
    include: Schema.optionalKey(Schema.Array(Schema.String)),
    exclude: Schema.optionalKey(Schema.Array(Schema.String)),
    unredacted: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isMinLength(1))))
  })),
  /** `RetrievalConfig` overrides for every question. */
  retrieval: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
  /**
   * A candidate configuration `ask` runs beside the shipped one (pipelines/shadow.ts): overrides
   * over `retrieval`; what the two returned differently is appended to `.cairn/shadow.jsonl`.
   */
  shadow: Schema.optionalKey(Schema.Struct({ retrieval: Schema.Record(Schema.String, Schema.Unknown) })),
  /** An embedding model and a reranker behind HTTP endpoints (layers/http-models, docs/models.md). */
  models: Schema.optionalKey(ModelConfig.ModelsConfig)
})
export type RepositoryConfig = typeof ConfigFile.Type

const decodeFile = Schema.decodeUnknownEffect(ConfigFile)

const invalid = (field: string, detail: string) => new InvalidInput({ subject: CONFIG_FILE, field, detail })

const isLoop = (error: PlatformError.PlatformError): boolean => {
  const cause: unknown = error.reason.cause
  return typeof cause === "object" && cause !== null && "code" in cause && cause.code === "ELOOP"
}

/** Fails unless the symbolic link `file` resolves to a file inside `root`, reading neither. */
const linkInsideRoot = Effect.fnUntraced(function*(root: string, file: string) {
  const fs = yield* FileSystem.FileSystem
  const resolved = yield* fs.realPath(file).pipe(Effect.mapError((error) =>
    isLoop(error)
      ? invalid("(root)", "is a symbolic link loop; not read")
      : invalid("(root)", "is a symbolic link to a missing target; not read")
  ))
  const base = yield* fs.realPath(root).pipe(Effect.mapError((error) => invalid("(root)", `cannot be looked for: ${error.message}`)))
  if (!resolved.startsWith(`${base}/`)) {
    return yield* invalid("(root)", "is a symbolic link that leaves the repository root; refused without reading it")
  }
})

/** The settings of the repository at `root`; none when it has no `cairn.config.json`. */
export const read = Effect.fn("repositoryConfig.read")(function*(root: string): Effect.fn.Return<RepositoryConfig, InvalidInput, FileSystem.FileSystem | Path.Path> {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(root, CONFIG_FILE)
    // A file that cannot even be looked for is an error, not a missing file: taking the defaults
    // instead could rebuild an index built under the file's settings.
    const entry = yield* fs.lstat(file).pipe(
      Effect.map(Option.some),
      Effect.catchReason("PlatformError", "NotFound", () => Effect.succeed(Option.none())),
      Effect.mapError((error) => invalid("(root)", `cannot be looked for: ${error.message}`))
    )
    if (Option.isNone(entry)) return {}
    // A link is resolved, never read through, before its target is known to stay in the root: the
    // error then names this file alone, never the target or its bytes.
    if (entry.value.type === "SymbolicLink") yield* linkInsideRoot(root, file)
    const target = yield* fs.stat(file).pipe(Effect.mapError((error) => invalid("(root)", `cannot be looked for: ${error.message}`)))
    // Reading a FIFO or a device could block or never end.
    if (target.type !== "File") return yield* invalid("(root)", "is not a regular file; not read")
    const text = yield* fs.readFileString(file).pipe(Effect.mapError((error) => invalid("(root)", `cannot be read: ${error.message}`)))
    const parsed = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: (error) => invalid("(root)", `is not JSON: ${String(error)}`) })
    const config = yield* decodeFile(parsed, { onExcessProperty: "error" }).pipe(Effect.mapError((error) => fromSchemaError(CONFIG_FILE, error)))
    // Retrieval overrides are checked against RetrievalConfig now, not at the first question.
    if (config.retrieval !== undefined || config.shadow !== undefined) {
      const base = yield* RetrievalConfig.resolve(config.retrieval ?? {}).pipe(Effect.mapError((error) => invalid(`retrieval.${error.field}`, error.detail)))
      if (config.shadow !== undefined) {
        yield* RetrievalConfig.resolve(config.shadow.retrieval, base).pipe(Effect.mapError((error) => invalid(`shadow.retrieval.${error.field}`, error.detail)))
      }
    }
    return config
  })
