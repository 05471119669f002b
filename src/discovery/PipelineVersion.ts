/** Bumped whenever assembly or resolution would turn the same facts into a different snapshot. */
export const PIPELINE_VERSION = "discover/3"
