/**
 * Configuration and other text read as it is, chunked by lines under its path: YAML, TOML, JSON,
 * SQL, INI-style files, and the build files named by convention. Manifests and tsconfig files are
 * read by their own analyzers first; lockfiles are generated, and cairn.config.json is cairn's own
 * control file: neither is ever indexed.
 */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  ".yaml", ".yml", ".toml", ".json", ".jsonc", ".sql", ".ini", ".cfg", ".conf", ".properties", ".gradle", ".proto", ".graphql", ".tf"
])
export const TEXT_FILE_NAMES = /^((Docker|Container)file|Makefile|Justfile|Procfile|Gemfile|Rakefile)$|\.(docker|container)file$/
export const NEVER_INDEXED_NAMES = /^(cairn\.config\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|yarn\.lock|composer\.lock|Cargo\.lock|Gemfile\.lock|poetry\.lock|go\.sum)$/
