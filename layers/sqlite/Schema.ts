/**
 * The index file's schema and its version. `PRAGMA user_version` holds the version and
 * `PRAGMA application_id` marks the file as cairn's, so a stranger's database is never migrated.
 * The vector table is not created here: its width is the embedder's, known at the first write.
 */
import type { DatabaseSync } from "node:sqlite"
import { BEFORE_RECORDED_FINGERPRINT } from "../../src/index/chunk/ChunkingConfig.ts"
import * as ChunkStems from "./ChunkStems.ts"
import * as LsaTerms from "./LsaTerms.ts"
import * as NoteNames from "./NoteNames.ts"

/**
 * Bump with every change to the tables below, and append the step that migrates to it. A read-only
 * open cannot migrate, so what reads a file without writing it must not need what a step adds, or
 * must refuse older files there.
 */
export const SCHEMA_VERSION = 6

/** "crn1" read as a big-endian 32-bit integer. */
export const APPLICATION_ID = 0x63726e31

/** The vec0 table of the current vector space (see VectorTable.ts). */
export const VECTOR_TABLE = "chunk_vectors"

/** vec0's own record of the rows it holds: a plain table, so it reads without sqlite-vec. */
export const VECTOR_ROWIDS = `${VECTOR_TABLE}_rowids`

const VERSION_1 = `
CREATE TABLE chunks (
  row INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  note_id TEXT NOT NULL,
  path TEXT NOT NULL,
  title TEXT NOT NULL,
  heading_path TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL,
  note_type TEXT NOT NULL,
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  block_id TEXT NOT NULL,
  content_sha TEXT NOT NULL,
  author_kind TEXT NOT NULL,
  author TEXT,
  created_at TEXT,
  state TEXT NOT NULL,
  status TEXT NOT NULL,
  updated TEXT,
  is_link_list INTEGER NOT NULL,
  symbols TEXT NOT NULL,
  created_ms REAL NOT NULL,
  superseded INTEGER NOT NULL,
  fts_hash INTEGER NOT NULL
);
CREATE INDEX chunks_by_note ON chunks (note_id, line_start);
CREATE INDEX chunks_by_path ON chunks (path);
CREATE TABLE notes (
  id TEXT PRIMARY KEY,
  title TEXT,
  path TEXT,
  chunk_count INTEGER NOT NULL,
  lead_chunk TEXT,
  content_hash TEXT
) WITHOUT ROWID;
CREATE TABLE relations (
  from_note TEXT NOT NULL,
  to_note TEXT NOT NULL,
  verb TEXT NOT NULL,
  PRIMARY KEY (from_note, to_note, verb)
) WITHOUT ROWID;
CREATE INDEX relations_by_target ON relations (to_note);
CREATE VIRTUAL TABLE chunks_fts USING fts5(text, title, tags, content = '', tokenize = 'porter unicode61');
CREATE TABLE vector_space (
  key INTEGER PRIMARY KEY CHECK (key = 1),
  model_id TEXT NOT NULL,
  embedding_version TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  model TEXT
);
CREATE TABLE manifest (
  key INTEGER PRIMARY KEY CHECK (key = 1),
  generation INTEGER NOT NULL,
  snapshot_hash TEXT NOT NULL,
  built_at TEXT NOT NULL,
  chunk_count INTEGER NOT NULL,
  embedded_count INTEGER NOT NULL,
  note_count INTEGER NOT NULL,
  relation_count INTEGER NOT NULL,
  embedder_id TEXT,
  embedder_version TEXT
);
`

/**
 * The chunking settings the index was built under (`ChunkingConfig.fingerprint`). A build from
 * before took that time's defaults, which are written in. Only the writer reads it.
 */
const version2 = (db: DatabaseSync): void => {
  db.exec("ALTER TABLE manifest ADD COLUMN chunking TEXT")
  db.prepare("UPDATE manifest SET chunking = ?").run(BEFORE_RECORDED_FINGERPRINT)
}

/**
 * The corpus-trained model term by term (`lsa_terms`, `vector_space.terms_version`; see
 * LsaTerms.ts), filled from the model the file already stores. A read-only open of an older file
 * embeds questions with the whole model, as that file's cairn did.
 */
const version3 = (db: DatabaseSync): void => {
  db.exec(LsaTerms.CREATE)
  LsaTerms.storeFromSpace(db)
}

/**
 * Each note's analysed name (`notes.name_terms`, space-separated; see NoteNames.ts), filled for the
 * notes already stored, so the title/path channel reads names instead of analysing every one per
 * question. A read-only open of an older file analyses them as that file's cairn did.
 */
const version4 = (db: DatabaseSync): void => {
  db.exec("ALTER TABLE notes ADD COLUMN name_terms TEXT")
  NoteNames.fill(db)
}

/**
 * Each chunk's distinct stems (`chunks.stems`) and the analysis they were made by
 * (`manifest.stems_version`; see ChunkStems.ts), filled for the chunks already stored. A read-only
 * open of an older file stems each passage as that file's cairn did.
 */
const version5 = (db: DatabaseSync): void => {
  db.exec("ALTER TABLE chunks ADD COLUMN stems TEXT")
  db.exec("ALTER TABLE manifest ADD COLUMN stems_version TEXT")
  ChunkStems.fill(db)
  db.prepare("UPDATE manifest SET stems_version = ?").run(ChunkStems.version())
}

/**
 * `vector_space.terms_version` moved before `model`. Added last, it sat after the model's
 * megabytes, and SQLite reaches a column past an overflowing one by walking its overflow pages:
 * reading the version took 13 ms of every question on this repository's index, the columns before
 * the model 0.2 ms. Same columns, same values; a read-only open of an older file reads them as before.
 */
const version6 = (db: DatabaseSync): void => {
  db.exec(`
CREATE TABLE vector_space_v6 (
  key INTEGER PRIMARY KEY CHECK (key = 1),
  model_id TEXT NOT NULL,
  embedding_version TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  terms_version TEXT,
  model TEXT
);
INSERT INTO vector_space_v6 (key, model_id, embedding_version, dimension, terms_version, model)
  SELECT key, model_id, embedding_version, dimension, terms_version, model FROM vector_space;
DROP TABLE vector_space;
ALTER TABLE vector_space_v6 RENAME TO vector_space;
`)
}

/** `MIGRATIONS[v - 1]` takes a file from version v - 1 to v; version 0 is an empty file. */
export const MIGRATIONS: ReadonlyArray<(db: DatabaseSync) => void> = [
  (db) => db.exec(VERSION_1),
  version2,
  version3,
  version4,
  version5,
  version6
]
