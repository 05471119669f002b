/**
 * The tunables of chunking: the size a chunk may reach, how that size is estimated, and which
 * authors are agents. Defaults are what the index uses unless a caller names others.
 */
import { utf8Length } from "../../text/TokenCount.ts"

export interface ChunkOptions {
  /**
   * Most tokens a chunk's text may cost, measured by `count`. Default 350 (cl100k tokens when `count`
   * is a cl100k counter). A chunk exceeds it only when its `{title} > {heading path}` line alone
   * takes more than three quarters of it.
   */
  readonly targetTokens: number
  /**
   * Tokens of a text. Must never count fewer than the exact encoding would, and must be linear in
   * its input: the index passes the bounded counter of the `TokenCounter` port. The default is the
   * UTF-8 byte length, an upper bound for every byte-level BPE (each token is at least one byte)
   * that needs no encoder, at the price of chunks about a quarter of the target in real tokens.
   */
  readonly count: (text: string) => number
  /**
   * Case-insensitive substrings of an author name or e-mail that mark the author as an agent or a
   * bot rather than a person; a pattern that begins or ends with a letter or digit must meet a
   * word boundary there (`bot@` marks `ci-bot@x.org`, not `abbot@x.org`).
   */
  readonly agentPatterns: ReadonlyArray<string>
  /**
   * The file is one of a few chunked on a thread whose heap may be large (a refresh): code is then
   * parsed in oxc's default mode, which allocates nothing outside the heap (see CodeOutline.ts).
   * The same chunks either way. Default false.
   */
  readonly alone: boolean
}

export const DEFAULT_TARGET_TOKENS = 350

/**
 * The rules that cut code into chunks, named so an index records them with its settings: a change
 * that cuts the same file differently bumps it, and an index built under the old rules is rebuilt
 * rather than mixing old chunks of unchanged files with new ones. 2: one-line exported constants
 * join the module chunk.
 */
export const CODE_CHUNK_RULES = "code/2"

export const DEFAULT_AGENT_PATTERNS: ReadonlyArray<string> = ["[bot]", "bot@", "-bot"]

export const defaults: ChunkOptions = {
  targetTokens: DEFAULT_TARGET_TOKENS,
  count: utf8Length,
  agentPatterns: DEFAULT_AGENT_PATTERNS,
  alone: false
}

/** The defaults with the given fields replaced. */
export const resolve = (overrides: Partial<ChunkOptions> | undefined): ChunkOptions =>
  overrides === undefined ? defaults : { ...defaults, ...overrides }
