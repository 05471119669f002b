/**
 * Where a repository's index lives: the embedded file under `<root>/.cairn/` (the default), or a
 * PostgreSQL server (`--store postgres://…`, or `CAIRN_STORE`), under the repository's key
 * (`<folder name>@<branch>` unless `CAIRN_REPOSITORY` or the caller names another), so one server
 * holds a team's repositories and branches side by side. The URL's password is a secret: what cairn
 * prints names the server without it.
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Context, Effect, FileSystem, Layer, Option } from "effect"
import * as NodePath from "node:path"
import * as Embedded from "../layers/Embedded.ts"
import { headBranch } from "../layers/node/GitRevision.ts"
import { describeStore, isPostgres } from "../layers/postgres/StoreUrl.ts"
import type { Database } from "../layers/sqlite/Database.ts"
import { DatabaseError } from "../layers/sqlite/DatabaseError.ts"
import { InvalidInput } from "../src/domain/InvalidInput.ts"
import type { LexicalIndexError } from "../src/ports/LexicalIndex.ts"

export interface StoreChoice {
  /** A `postgres://` URL, or undefined for the embedded file. */
  readonly store: string | undefined
  /** The repository key on a shared store; derived from the root when absent. */
  readonly repository: string | undefined
}

const fromEnvironment = (): StoreChoice => {
  const store = process.env.CAIRN_STORE
  const repository = process.env.CAIRN_REPOSITORY
  return { store: store === undefined || store === "" ? undefined : store, repository: repository === undefined || repository === "" ? undefined : repository }
}

/** The store this process indexes into and answers from; the environment's unless a caller says. */
export const IndexLocation = Context.Reference<StoreChoice>("cairn/pipelines/IndexLocation", { defaultValue: fromEnvironment })

/** `effect` with the store `choice` names, where it names one; as it is otherwise. */
export const withStore = (store: Option.Option<string> | string | undefined) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const url = Option.isOption(store) ? Option.getOrUndefined(store) : store
  if (url === undefined) return effect
  return Effect.flatMap(Effect.service(IndexLocation), (current) => Effect.provideService(effect, IndexLocation, { ...current, store: url }))
}

export type Location =
  | { readonly _tag: "File" }
  | { readonly _tag: "Postgres"; readonly url: string; readonly repository: string }

/** Where `root`'s index is, by the current choice; a store that is neither a file nor PostgreSQL is refused. */
export const locate = Effect.fn("indexLocation.locate")(function*(root: string) {
  const choice = yield* IndexLocation
  if (choice.store === undefined) return { _tag: "File" } as Location
  if (!isPostgres(choice.store)) {
    return yield* new InvalidInput({ subject: "config", field: "store", detail: "give a postgres://user@host:port/database URL, or leave it unset for the index file under .cairn/" })
  }
  try {
    new URL(choice.store)
  } catch {
    return yield* new InvalidInput({ subject: "config", field: "store", detail: "the postgres:// URL does not parse" })
  }
  if (choice.repository !== undefined) return { _tag: "Postgres", url: choice.store, repository: choice.repository } as Location
  const fs = yield* FileSystem.FileSystem
  const absolute = NodePath.resolve(root)
  const branch = Option.getOrElse(yield* headBranch(fs, absolute), () => "none")
  return { _tag: "Postgres", url: choice.store, repository: `${NodePath.basename(absolute)}@${branch}` } as Location
})

/**
 * The PostgreSQL modules, loaded only for a server: `@effect/sql-pg` is an optional peer of the
 * library, and a service that never names a server need not install it.
 */
export const loadPostgres = <A>(location: { readonly url: string }, load: () => Promise<A>): Effect.Effect<A, DatabaseError> =>
  Effect.tryPromise({
    try: load,
    catch: (error) =>
      new DatabaseError({
        reason: "open_failed",
        path: describeStore(location.url),
        detail: `the PostgreSQL layers could not load (${error instanceof Error ? error.message : String(error)}); install @effect/sql-pg beside cairn`
      })
  })

/** The writer of `root`'s index on its server. */
export const postgresIndexStore = (location: Location & { readonly _tag: "Postgres" }) =>
  Layer.unwrap(Effect.map(
    loadPostgres(location, () => Promise.all([import("../layers/postgres/IndexStorePg.ts"), import("../layers/postgres/PgIndex.ts")])),
    ([{ layer: store }, PgIndex]) => store.pipe(Layer.provideMerge(PgIndex.layer({ url: location.url, repository: location.repository })))
  ))

/** What recall reads of an index, wherever it lives. */
export type RecallServices = Exclude<Embedded.EmbeddedServices, Database>

/**
 * The recall layers over `root`'s index: the embedded file (`Embedded.embedded`), or the shared
 * server's (`Postgres.postgres`, loaded only then). A read-only open means nothing on a server,
 * where readers never block the writer.
 */
export const recallLayer = (options: Embedded.EmbeddedOptions): Layer.Layer<RecallServices, DatabaseError | LexicalIndexError | InvalidInput> =>
  Layer.unwrap(Effect.gen(function*(): Effect.fn.Return<Layer.Layer<RecallServices, DatabaseError | LexicalIndexError | InvalidInput>, InvalidInput | DatabaseError, FileSystem.FileSystem> {
    const location = yield* locate(options.root)
    if (location._tag === "File") return Embedded.embedded(options)
    const { postgres } = yield* loadPostgres(location, () => import("../layers/Postgres.ts"))
    return postgres({
      root: options.root,
      url: location.url,
      repository: location.repository,
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.tokenCounter === undefined ? {} : { tokenCounter: options.tokenCounter }),
      ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
      ...(options.reranker === undefined ? {} : { reranker: options.reranker })
    })
  }).pipe(Effect.provide(NodeFileSystem.layer)))
