/**
 * A file of a language read with tree-sitter (src/languages) into chunks, by its outline, as
 * TypeScript's are by oxc's. Undefined when its grammar is not loaded or the parse was given up;
 * the caller then chunks it by lines. Units a parse of the same text already gave (discovery's)
 * are packed as they are, without parsing again.
 */
import * as Grammars from "../../languages/Grammars.ts"
import type { LanguageSpec } from "../../languages/LanguageSpec.ts"
import { outlineOf } from "../../languages/Outline.ts"
import { type PackedUnits, unpack } from "../../languages/PackedUnits.ts"
import type { ChunkOptions } from "./ChunkOptions.ts"
import { chunkUnits } from "./CodeChunker.ts"
import type { Draft } from "./Draft.ts"

export const chunkWithGrammar = (
  language: LanguageSpec,
  path: string,
  text: string,
  options: ChunkOptions,
  parsed?: PackedUnits
): Array<Draft> | undefined => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (parsed !== undefined && parsed.sourceLength === source.length) return chunkUnits(path, source, unpack(parsed), options)
  const outline = Grammars.withTree(language.grammar, source, (tree) => outlineOf(language, source, tree))
  return typeof outline === "string" ? undefined : chunkUnits(path, source, outline.units, options)
}
