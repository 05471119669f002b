/**
 * A declaration the symbol leg found for a question: what the `SymbolIndex` port answers and
 * `src/retrieval/symbolTable.ts` computes, so the port and its backends need no stage helper.
 */
import type { ChunkId } from "./Chunk.ts"

export type SymbolKind =
  | "function" | "class" | "interface" | "type" | "enum" | "namespace" | "variable" | "method"
  | "struct" | "trait" | "impl" | "macro" | "declaration"

export interface Declared {
  readonly name: string
  readonly kind: SymbolKind
  readonly exported: boolean
  readonly chunk: ChunkId
  readonly path: string
  /** 1-based line of the declaration in its file. */
  readonly line: number
}

export type SymbolMatchKind = "exact" | "parts" | "prefix"

export interface SymbolMatch extends Declared {
  readonly match: SymbolMatchKind
  readonly score: number
}
