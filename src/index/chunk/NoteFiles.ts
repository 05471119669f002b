/**
 * Which files are notes the index chunks, by extension: known without the chunkers and their
 * parsers, for the parts of a refresh that only compare what is on disk with what is indexed.
 */
import { LANGUAGE_EXTENSIONS } from "../../languages/Languages.ts"
import { TEXT_EXTENSIONS, TEXT_FILE_NAMES } from "../../languages/TextFiles.ts"

export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".mdx", ".markdown"])
/** TypeScript and JavaScript (read with oxc-parser), then the languages read with tree-sitter. */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ...LANGUAGE_EXTENSIONS])

/** Whether the index keeps the file at `path` as a note, when discovery makes a module or document of it. */
export const isNoteFile = (path: string): boolean => {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  const extension = dot <= 0 ? "" : name.slice(dot).toLowerCase()
  return MARKDOWN_EXTENSIONS.has(extension) || CODE_EXTENSIONS.has(extension) || TEXT_EXTENSIONS.has(extension) || TEXT_FILE_NAMES.test(name)
}
