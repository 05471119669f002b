/**
 * The shared index's tables, made by Effect's `Migrator`. Every table is keyed by `repository`
 * first, so repositories and branches share one database without seeing each other's rows.
 * Postings hold BM25's term frequencies per column (weighted at query time as the reference layer
 * weighs them), with their chunk's token count and whether it is superseded, so a question under
 * the default filter is ranked from the postings alone; ranking needs no text search configuration
 * of the server's.
 * Chunks carry what the retrieval filter reads as columns, and the chunk itself as JSON text.
 * Ids and paths compare by byte (`COLLATE "C"`), the code-point order the other backends sort by.
 */
import { Effect, Schema } from "effect"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import type { VectorStorage } from "./PgIndex.ts"

export const MIGRATIONS_TABLE = "cairn_migrations"

export class SchemaTooNew extends Schema.TaggedError<SchemaTooNew>()("SchemaTooNew", { detail: Schema.String }) {}

const initial = Effect.gen(function*() {
  const sql = yield* SqlClient
  // pgvector where the server offers it; the column's type then says which storage the index uses.
  const offered = yield* sql<{ found: number }>`SELECT 1 AS found FROM pg_available_extensions WHERE name = 'vector'`
  if (offered.length > 0) yield* sql`CREATE EXTENSION IF NOT EXISTS vector`
  const vectorType = offered.length > 0 ? "vector" : "real[]"
  // One statement at a time: the extended protocol takes one command per statement.
  for (const statement of [
    `CREATE TABLE cairn_manifest (
        repository text PRIMARY KEY,
        generation integer NOT NULL,
        snapshot_hash text NOT NULL,
        built_at text NOT NULL,
        chunking text,
        chunk_count integer NOT NULL,
        embedded_count integer NOT NULL,
        note_count integer NOT NULL,
        relation_count integer NOT NULL,
        token_total bigint NOT NULL
      )`,
    `CREATE TABLE cairn_spaces (
        repository text PRIMARY KEY,
        model_id text NOT NULL,
        version text NOT NULL,
        dimension integer NOT NULL,
        model text
      )`,
    `CREATE TABLE cairn_chunks (
        repository text NOT NULL,
        id text COLLATE "C" NOT NULL,
        note_id text COLLATE "C" NOT NULL,
        path text COLLATE "C" NOT NULL,
        title text NOT NULL,
        note_type text NOT NULL,
        superseded boolean NOT NULL,
        created_ms double precision NOT NULL,
        line_start integer NOT NULL,
        is_link_list boolean NOT NULL,
        content_sha text NOT NULL,
        token_count integer NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (repository, id)
      )`,
    `CREATE INDEX cairn_chunks_note ON cairn_chunks (repository, note_id)`,
    `CREATE TABLE cairn_postings (
        repository text NOT NULL,
        term text COLLATE "C" NOT NULL,
        chunk_id text COLLATE "C" NOT NULL,
        tf_text integer NOT NULL,
        tf_title integer NOT NULL,
        tf_tags integer NOT NULL,
        token_count integer NOT NULL,
        superseded boolean NOT NULL,
        -- Covering: a question reads the postings of its terms from the index alone.
        PRIMARY KEY (repository, term, chunk_id) INCLUDE (tf_text, tf_title, tf_tags, token_count, superseded),
        FOREIGN KEY (repository, chunk_id) REFERENCES cairn_chunks (repository, id) ON DELETE CASCADE
      )`,
    `CREATE INDEX cairn_postings_chunk ON cairn_postings (repository, chunk_id)`,
    `CREATE TABLE cairn_vectors (
        repository text NOT NULL,
        chunk_id text COLLATE "C" NOT NULL,
        embedding ${vectorType} NOT NULL,
        PRIMARY KEY (repository, chunk_id),
        FOREIGN KEY (repository, chunk_id) REFERENCES cairn_chunks (repository, id) ON DELETE CASCADE
      )`,
    `CREATE TABLE cairn_notes (
        repository text NOT NULL,
        id text COLLATE "C" NOT NULL,
        title text,
        path text,
        chunk_count integer NOT NULL,
        lead_chunk text,
        content_hash text,
        name_terms text,
        PRIMARY KEY (repository, id)
      )`,
    `CREATE TABLE cairn_relations (
        repository text NOT NULL,
        from_note text COLLATE "C" NOT NULL,
        to_note text COLLATE "C" NOT NULL,
        verb text COLLATE "C" NOT NULL,
        PRIMARY KEY (repository, from_note, to_note, verb)
      )`,
    `CREATE INDEX cairn_relations_to ON cairn_relations (repository, to_note)`,
    // Exact cosine over real[] in double precision, the reference's arithmetic.
    `CREATE FUNCTION cairn_cosine(a real[], b double precision[]) RETURNS double precision
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT sum(x::float8 * y) / sqrt(sum(x::float8 * x::float8) * sum(y * y))
          FROM unnest(a, b) AS t(x, y)
        $$`
  ]) yield* sql.unsafe(statement)
})

/** The migrations this cairn knows, by id; a database with a higher one is from a newer cairn. */
const MIGRATIONS = { "1_initial": initial }
const LATEST = 1

const run = Migrator.make({})

/** Migrates the database to this cairn's schema, and says how its vectors are stored. */
export const migrate: Effect.Effect<VectorStorage, SchemaTooNew | Migrator.MigrationError | import("effect/sql/SqlError").SqlError, SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const table = yield* sql<{ found: number }>`SELECT 1 AS found FROM information_schema.tables WHERE table_name = ${MIGRATIONS_TABLE}`
  if (table.length > 0) {
    const [newest] = yield* sql<{ id: number | null }>`SELECT max(migration_id)::int AS id FROM ${sql(MIGRATIONS_TABLE)}`
    if (newest?.id !== null && newest?.id !== undefined && newest.id > LATEST) {
      return yield* new SchemaTooNew({ detail: `schema ${newest.id}, this cairn knows up to ${LATEST}` })
    }
  }
  // Two processes opening a fresh database at once: the Migrator's own lock lets one of them migrate.
  yield* run({ loader: Migrator.fromRecord(MIGRATIONS), table: MIGRATIONS_TABLE }).pipe(
    Effect.catchIf((error) => error._tag === "MigrationError" && error.kind === "Locked", () => Effect.void)
  )
  const [column] = yield* sql<{ udt: string }>`
    SELECT udt_name AS udt FROM information_schema.columns WHERE table_name = 'cairn_vectors' AND column_name = 'embedding'`
  return column?.udt === "vector" ? "pgvector" : "real[]"
})
