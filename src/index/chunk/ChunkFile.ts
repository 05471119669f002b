/**
 * One file into chunks with provenance: the chunker chosen by extension (Markdown, TypeScript and
 * JavaScript, the languages read with tree-sitter, else line windows), then ids, hashes, note type, trust, status and the age of the
 * words. Never fails: a file that does not parse is chunked by lines.
 */
import { Effect } from "effect"
import type * as Digest from "effect/crypto/Digest"
import { type Chunk, ChunkId } from "../../domain/Chunk.ts"
import { sha256Text } from "../../source/Hashing.ts"
import { extname } from "../../source/Paths.ts"
import type { BlameLine } from "../../ports/History.ts"
import { blockId, disambiguate } from "./BlockId.ts"
import { type ChunkOptions, resolve } from "./ChunkOptions.ts"
import { chunkCode } from "./CodeChunker.ts"
import { chunkWithGrammar } from "./GrammarChunker.ts"
import * as Grammars from "../../languages/Grammars.ts"
import { languageOfPath } from "../../languages/Languages.ts"
import type { PackedUnits } from "../../languages/PackedUnits.ts"
import type { Draft } from "./Draft.ts"
import { type Fields, tags as readTags, text as fieldText } from "./Frontmatter.ts"
import { chunkLines } from "./LineChunker.ts"
import { chunkMarkdown } from "./MarkdownChunker.ts"
import { CODE_EXTENSIONS, MARKDOWN_EXTENSIONS } from "./NoteFiles.ts"
import { fromPath, noteTypeOf } from "./NoteType.ts"
import { indexHistory, provenanceOf, updatedOf } from "./Provenance.ts"
import { noteStatusOf, trustStateOf } from "./TrustState.ts"

export { CODE_EXTENSIONS, MARKDOWN_EXTENSIONS }

export interface ChunkFileInput {
  /** Repository-relative POSIX path; it is the note id. */
  readonly path: string
  readonly text: string
  /** Frontmatter fields a note has unless it declares its own (defaults a configuration gives a folder). */
  readonly frontmatterDefaults?: Fields
  /** The file's blame, when its history is known; chunk ages then come from it. */
  readonly history?: ReadonlyArray<BlameLine>
  /**
   * The units a parse of this text gave (discovery's, for a language read with tree-sitter): the
   * file is then not parsed again. The same chunks as without.
   */
  readonly units?: PackedUnits
}

interface Structured {
  readonly title: string
  readonly fields: Fields
  readonly drafts: ReadonlyArray<Draft>
}

const structure = (input: ChunkFileInput, options: ChunkOptions): Structured => {
  const extension = extname(input.path)
  const fields = input.frontmatterDefaults ?? {}
  if (MARKDOWN_EXTENSIONS.has(extension)) return chunkMarkdown(input.path, input.text, fields, options)
  const language = languageOfPath(input.path)
  const drafts = language !== undefined
    ? chunkWithGrammar(language, input.path, input.text, options, input.units)
    : CODE_EXTENSIONS.has(extension) ? chunkCode(input.path, input.text, options) : undefined
  return { title: input.path, fields, drafts: drafts ?? chunkLines(input.path, input.text, options) }
}

const ChunkIdOf = (id: string) => ChunkId.make(id)

/**
 * The chunks of one file, in source order. The same path, text, defaults, history and options
 * always give the same chunks.
 */
export const chunkFile = Effect.fnUntraced(function*(input: ChunkFileInput,
  options?: Partial<ChunkOptions>): Effect.fn.Return<ReadonlyArray<Chunk>, never, Digest.Digest> {
    const resolved = resolve(options)
    // A grammar that cannot be loaded leaves its files to line windows, as a parse given up does.
    const language = languageOfPath(input.path)
    if (language !== undefined && input.units === undefined) yield* Effect.ignore(Effect.tryPromise(() => Grammars.ready([language.grammar])))
    const { title, fields, drafts } = structure(input, resolved)
    const history = input.history === undefined ? undefined : indexHistory(input.history)
    // Source is code wherever it sits and whatever a folder's defaults declare.
    const noteType = fromPath(input.path) === "code" ? "code" : noteTypeOf(input.path, fieldText(fields, "type"))
    const state = trustStateOf(fields)
    const status = noteStatusOf(fields)
    const updated = updatedOf(fields, history)
    const tags = readTags(fields)
    const rawIds: Array<string> = []
    for (const draft of drafts) rawIds.push(yield* blockId([...draft.headingPath, ...draft.symbols], draft.body))
    const ids = disambiguate(rawIds)
    const chunks: Array<Chunk> = []
    for (const [i, draft] of drafts.entries()) {
      chunks.push({
        id: ChunkIdOf(`${input.path}#${ids[i]!}`),
        noteId: input.path,
        path: input.path,
        title,
        headingPath: draft.headingPath,
        text: draft.text,
        tags,
        noteType,
        lineStart: draft.lineStart,
        lineEnd: draft.lineEnd,
        blockId: ids[i]!,
        contentSha: yield* sha256Text(draft.text),
        provenance: provenanceOf({
          fields,
          history,
          lineStart: draft.lineStart,
          lineEnd: draft.lineEnd,
          state,
          agentPatterns: resolved.agentPatterns
        }),
        status,
        updated,
        isLinkList: draft.isLinkList,
        symbols: draft.symbols
      })
    }
    return chunks
  })
