/**
 * The environment cairn's git processes run in. cairn may itself run under git (a hook, `git
 * rebase --exec`, an alias), which exports `GIT_DIR` and its kin; inherited, they would point every
 * read at that repository instead of the root's. These are the variables `git rev-parse
 * --local-env-vars` lists, the ones git itself clears before it works in another repository.
 */
const REPOSITORY_LOCAL = [
  "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
  "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
  "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR"
] as const

/**
 * Laid over the inherited environment (`extendEnv`): messages in one language for the parsers, no
 * optional lock taken in the user's repository, and no repository but the one found from `cwd`.
 */
export const gitEnvironment: Readonly<Record<string, string | undefined>> = {
  ...Object.fromEntries(REPOSITORY_LOCAL.map((name) => [name, undefined])),
  LC_ALL: "C",
  GIT_OPTIONAL_LOCKS: "0"
}
