/** The version of every analyzer read with tree-sitter: bumped whenever the same bytes would give other facts. */
export const GRAMMAR_ANALYZER_VERSION = "1"
