/**
 * Which files are notes the index chunks, by extension: known without the chunkers and their
 * parsers, for the parts of a refresh that only compare what is on disk with what is indexed.
 */
import { LANGUAGE_EXTENSIONS } from "../../languages/Languages.ts"

export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".mdx", ".markdown"])
/** TypeScript and JavaScript (read with oxc-parser), then the languages read with tree-sitter. */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ...LANGUAGE_EXTENSIONS])
