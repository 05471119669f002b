/**
 * What kind of knowledge a file holds: the frontmatter `type` when it names one, else a small table
 * of path rules, first match wins. Source files are `code` wherever they sit.
 */
import type { NoteType } from "../../domain/Chunk.ts"
import { extname } from "../../source/Paths.ts"

/** Extensions read as source code. */
export const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
  ".py", ".go", ".rs", ".java", ".kt", ".scala", ".rb", ".php", ".cs", ".swift",
  ".c", ".h", ".cc", ".cpp", ".hpp", ".m", ".sh", ".sql", ".vue", ".svelte"
])

/** Path rules over the lower-cased repository-relative path, in order. */
export const PATH_RULES: ReadonlyArray<readonly [RegExp, NoteType]> = [
  [/(^|\/)(decisions?|adrs?)\//, "decision"],
  [/(^|\/)adr[-_ ]?\d/, "decision"],
  [/(^|\/)conventions?\//, "convention"],
  [/(^|\/)contributing(\.[a-z]+)?$/, "convention"],
  [/(^|\/)style([-_ ]?guide)?(\/|\.[a-z]+$)/, "convention"],
  [/(^|\/)runbooks?\//, "reference"],
  [/(^|\/|[-_])how-?to([-_./]|$)/, "reference"],
  [/(^|\/)status\//, "state"],
  [/roadmap/, "state"],
]

/** Frontmatter `type` words and what they mean; the note types themselves map to themselves. */
const TYPE_WORDS: ReadonlyMap<string, NoteType> = new Map([
  ["decision", "decision"],
  ["adr", "decision"],
  ["convention", "convention"],
  ["style", "convention"],
  ["guideline", "convention"],
  ["reference", "reference"],
  ["runbook", "reference"],
  ["how-to", "reference"],
  ["howto", "reference"],
  ["guide", "reference"],
  ["state", "state"],
  ["status", "state"],
  ["roadmap", "state"],
  ["note", "note"],
  ["code", "code"]
])

/** The note type a frontmatter `type` value names, if it names one. */
export const fromFrontmatter = (value: string | undefined): NoteType | undefined =>
  value === undefined ? undefined : TYPE_WORDS.get(value.trim().toLowerCase())

/** The note type of a path by the rules above; `note` when none applies. */
export const fromPath = (path: string): NoteType => {
  if (SOURCE_EXTENSIONS.has(extname(path))) return "code"
  const lower = path.toLowerCase()
  for (const [pattern, type] of PATH_RULES) if (pattern.test(lower)) return type
  return "note"
}

/** Frontmatter first, then the path. */
export const noteTypeOf = (path: string, declared: string | undefined): NoteType => fromFrontmatter(declared) ?? fromPath(path)
