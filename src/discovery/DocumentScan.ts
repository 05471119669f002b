/**
 * One document's unit, in two steps. `prepareDocument` reads it (unless the cache vouches it is
 * unchanged) while modules are still being analysed; once the resolution universe is known, a
 * document whose hash matches the previous snapshot is reused whole if that universe is unchanged,
 * and every other document is parsed (possibly off the main thread) and resolved.
 * A document's hash is taken after a leading byte-order mark is stripped: a mark is not content.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { Coverage, DocumentEntity } from "../domain/Snapshot.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import type { DocumentResolution } from "./DocumentResolution.ts"
import type { Analysis, DocumentReference } from "./FileAnalysis.ts"
import type { Unread } from "./FileContent.ts"
import { decodeText, isBinary, readContent } from "./FileContent.ts"
import type { FileOutcome } from "./ModuleScan.ts"
import { BINARY_NOTE, notesToCoverage } from "./ModuleScan.ts"
import { basename } from "../source/Paths.ts"
import type { PreviousIndex } from "./Reuse.ts"
import { hashOf } from "./Reuse.ts"
import type { ScanCache } from "./ScanCache.ts"
import { findingsToCoverage, type Redacted } from "./SecretScan.ts"
import type { ListedFile } from "./Walk.ts"

export const ANALYZER_ID = "markdown"

export interface PreparedDocument {
  readonly _tag: "Prepared"
  readonly file: ListedFile
  readonly hash: string
  /** The previous snapshot's entity, present only when its hash equals `hash`. */
  readonly prior: DocumentEntity | undefined
  /** The text, unless the file was not read (the cache vouched for it) or is binary. */
  readonly text: string | undefined
  readonly binary: boolean
  /** Coverage of the secrets redacted from `text`. */
  readonly secrets: ReadonlyArray<Coverage>
}

const priorDocument = (file: ListedFile, previous: PreviousIndex | undefined): DocumentEntity | undefined => {
  const prior = previous?.entity(`document:${file.path}`)
  return prior?.kind === "document" ? prior : undefined
}

/** The document read, or `Unread` when it cannot be read as it was listed. */
export const readDocument = (
  file: ListedFile,
  previous: PreviousIndex | undefined,
  cache: ScanCache,
  redact: (path: string, text: string) => Redacted
): Effect.Effect<PreparedDocument | Unread, never, SourceTree | Digest.Digest> =>
  Effect.map(readContent(file, true, cache, ANALYZER_ID), (content): PreparedDocument | Unread => {
    if (content._tag === "Unread") return content
    const prior = priorDocument(file, previous)
    const binary = isBinary(content.bytes)
    const redacted = binary ? undefined : redact(file.path, decodeText(content.bytes))
    return {
      _tag: "Prepared",
      file,
      hash: content.hash,
      prior: prior !== undefined && hashOf(prior) === content.hash ? prior : undefined,
      text: redacted?.text,
      binary,
      secrets: findingsToCoverage(ANALYZER_ID, file.path, redacted?.findings ?? [])
    }
  })

/** Reads a document unless the cache vouches that it still has the hash the previous snapshot has. */
export const prepareDocument = (
  file: ListedFile,
  previous: PreviousIndex | undefined,
  cache: ScanCache,
  redact: (path: string, text: string) => Redacted
): Effect.Effect<PreparedDocument | Unread, never, SourceTree | Digest.Digest> => {
  const prior = priorDocument(file, previous)
  const hash = hashOf(prior)
  return prior !== undefined && hash !== undefined && cache.hashOf(file.path, file.stamp) === hash
    ? Effect.succeed({ _tag: "Prepared", file, hash, prior, text: undefined, binary: false, secrets: [] })
    : readDocument(file, previous, cache, redact)
}

/** The previous snapshot's unit for an unchanged document in an unchanged resolution universe. */
export const reuseDocument = (prior: DocumentEntity, previous: PreviousIndex): FileOutcome => ({
  unit: { entity: prior, relations: previous.relationsFrom(prior.id), coverage: previous.coverageOf(prior.path, ANALYZER_ID) },
  parsed: false,
  reused: true
})

/** A document's unit from its analysis; `analysis` is undefined for a binary file. */
export const analysedDocument = (
  prepared: PreparedDocument,
  analysis: Analysis | undefined,
  resolve: (path: string, references: ReadonlyArray<DocumentReference>) => DocumentResolution
): FileOutcome => {
  const { file } = prepared
  const empty: DocumentEntity = {
    id: `document:${file.path}`,
    kind: "document",
    path: file.path,
    evidence: [{ path: file.path, contentHash: prepared.hash }],
    title: basename(file.path).replace(/\.[^.]+$/, ""),
    headings: [],
    summary: "",
    wordCount: 0,
    frontmatter: {},
    generatedRegions: [],
    evidenceTruncated: false
  }
  if (analysis === undefined) {
    return { unit: { entity: empty, relations: [], coverage: notesToCoverage(ANALYZER_ID, file.path, [BINARY_NOTE]) }, parsed: false, reused: false }
  }
  const facts = analysis.facts?._tag === "document" ? analysis.facts : undefined
  if (facts === undefined) {
    return { unit: { entity: empty, relations: [], coverage: [...notesToCoverage(ANALYZER_ID, file.path, analysis.notes), ...prepared.secrets] }, parsed: true, reused: false }
  }
  const resolution = resolve(file.path, facts.references)
  return {
    unit: {
      entity: {
        ...empty,
        title: facts.title,
        headings: facts.headings,
        summary: facts.summary,
        wordCount: facts.wordCount,
        frontmatter: facts.frontmatter,
        generatedRegions: facts.generatedRegions,
        evidenceTruncated: resolution.evidenceTruncated
      },
      relations: resolution.relations,
      coverage: [...notesToCoverage(ANALYZER_ID, file.path, [...analysis.notes, ...resolution.notes]), ...prepared.secrets]
    },
    parsed: true,
    reused: false
  }
}
