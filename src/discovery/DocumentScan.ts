/**
 * One document's contribution to the snapshot: reused whole from the previous snapshot when its hash
 * matches and the resolution universe is unchanged, otherwise read, parsed and resolved. A document's
 * hash is taken after a leading byte-order mark is stripped: a mark is not content.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import type { DiscoveryError } from "../domain/DiscoveryError.ts"
import type { DocumentEntity } from "../domain/Snapshot.ts"
import type { SourceTree } from "../ports/SourceTree.ts"
import type { DocumentResolution } from "./DocumentResolution.ts"
import type { Analyzer, DocumentReference } from "./FileAnalysis.ts"
import { decodeText, isBinary, readContent } from "./FileContent.ts"
import type { HashCache } from "./HashCache.ts"
import type { FileOutcome } from "./ModuleScan.ts"
import { BINARY_NOTE, notesToCoverage } from "./ModuleScan.ts"
import { basename } from "./Paths.ts"
import { runAnalyzer } from "./Registry.ts"
import type { PreviousIndex } from "./Reuse.ts"
import { hashOf } from "./Reuse.ts"
import type { ListedFile } from "./Walk.ts"

export interface DocumentScanContext {
  readonly analyzer: Analyzer
  readonly resolve: (path: string, references: ReadonlyArray<DocumentReference>) => DocumentResolution
  readonly previous: PreviousIndex | undefined
  /** The resolution universe equals the previous snapshot's: its documents stand as they are. */
  readonly universeUnchanged: boolean
  readonly cache: HashCache | undefined
}

export const scanDocument = (
  file: ListedFile,
  context: DocumentScanContext
): Effect.Effect<FileOutcome<DocumentEntity>, DiscoveryError, SourceTree | Digest.Digest> =>
  Effect.gen(function*() {
    const id = `document:${file.path}`
    const prior = context.universeUnchanged ? context.previous?.entity(id) : undefined
    const priorDocument = prior?.kind === "document" ? prior : undefined
    const content = yield* readContent(file, true, hashOf(priorDocument), context.cache)
    if (priorDocument !== undefined && content.hash === hashOf(priorDocument)) {
      const previous = context.previous!
      return {
        entity: priorDocument,
        relations: previous.relationsFrom(id),
        coverage: previous.coverageOf(file.path, context.analyzer.id),
        parsed: false,
        reused: true
      }
    }
    const bytes = content.bytes!
    const empty: DocumentEntity = {
      id,
      kind: "document",
      path: file.path,
      evidence: [{ path: file.path, contentHash: content.hash }],
      title: basename(file.path).replace(/\.[^.]+$/, ""),
      headings: [],
      summary: "",
      wordCount: 0,
      frontmatter: {},
      generatedRegions: [],
      evidenceTruncated: false
    }
    if (isBinary(bytes)) {
      return {
        entity: empty,
        relations: [],
        coverage: notesToCoverage(context.analyzer.id, file.path, [BINARY_NOTE]),
        parsed: false,
        reused: false
      }
    }
    const analysis = runAnalyzer(context.analyzer, file.path, decodeText(bytes))
    const facts = analysis.facts?._tag === "document" ? analysis.facts : undefined
    if (facts === undefined) {
      return {
        entity: empty,
        relations: [],
        coverage: notesToCoverage(context.analyzer.id, file.path, analysis.notes),
        parsed: true,
        reused: false
      }
    }
    const resolution = context.resolve(file.path, facts.references)
    return {
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
      coverage: notesToCoverage(context.analyzer.id, file.path, [...analysis.notes, ...resolution.notes]),
      parsed: true,
      reused: false
    }
  })
