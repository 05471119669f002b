import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as NodePath from "node:path"
import { DatabaseSync } from "node:sqlite"
import { analysedName, nameNotes } from "../../src/retrieval/titlePath.ts"
import { softwareChunks } from "../reference/fixtures/SoftwareNotes.ts"
import * as CandidateStoreSqlite from "./CandidateStoreSqlite.ts"
import * as Database from "./Database.ts"
import { coldBuild, openSeeded, tempDir } from "./testing/Fixtures.ts"

const CHUNKS = softwareChunks()
const OPTIONS = { titlePathLimit: 10, titlePathMinScore: 0.2, stopwords: new Set(["how", "the", "do", "we"]) }
const QUESTIONS = ["how do we retry failed requests", "caching", "the secrets rotation", "rate limiting"]

const notesOf = (database: Database.DatabaseShape) =>
  Effect.flatMap(CandidateStoreSqlite.make.pipe(Effect.provideService(Database.Database, database)), (store) => store.notes({}))

describe("NoteNames", () => {
  it.effect("a note's analysed name is stored with it, and names the same notes as analysing it per question", () =>
    Effect.gen(function*() {
      const notes = yield* notesOf(yield* openSeeded(coldBuild(CHUNKS)))
      assert.isAbove(notes.length, 3)
      for (const note of notes) assert.deepStrictEqual(note.nameTerms, analysedName(note), note.id)
      const unstored = notes.map(({ nameTerms: _, ...note }) => note)
      for (const question of QUESTIONS) assert.deepStrictEqual(nameNotes(question, notes, OPTIONS), nameNotes(question, unstored, OPTIONS), question)
    }))

  it.effect("a file from before the column is read by analysing names, and a writable open fills it", () =>
    Effect.gen(function*() {
      const path = NodePath.join(yield* tempDir, "index.sqlite")
      const expected = yield* Effect.scoped(Effect.flatMap(openSeeded(coldBuild(CHUNKS), path), notesOf))
      // The file as schema version 3 left it.
      const old = new DatabaseSync(path)
      old.exec("ALTER TABLE notes DROP COLUMN name_terms; ALTER TABLE chunks DROP COLUMN stems; ALTER TABLE manifest DROP COLUMN stems_version; PRAGMA user_version = 3")
      old.close()
      const read = yield* Effect.scoped(Effect.flatMap(Database.open({ path, readOnly: true }), notesOf))
      assert.isTrue(read.every((note) => note.nameTerms === undefined))
      for (const question of QUESTIONS) assert.deepStrictEqual(nameNotes(question, read, OPTIONS), nameNotes(question, expected, OPTIONS), question)
      const migrated = yield* Effect.scoped(Effect.flatMap(Database.open({ path }), notesOf))
      assert.deepStrictEqual(migrated, expected)
    }))
})
