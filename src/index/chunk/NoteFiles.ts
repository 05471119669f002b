/**
 * Which files are notes the index chunks, by extension: known without the chunkers and their
 * parsers, for the parts of a refresh that only compare what is on disk with what is indexed.
 */
export const MARKDOWN_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".mdx", ".markdown"])
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"])
