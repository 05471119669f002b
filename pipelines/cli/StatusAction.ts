/** What `cairn status` does (its flags are declared in StatusCommand.ts, so this module loads only when it runs). */
import type { StatusInput } from "./StatusCommand.ts"
import { Clock, Console, Effect } from "effect"
import { statusReport } from "../statusReport.ts"
import { withStore } from "../indexLocation.ts"

const runHere = Effect.fn("cli.status")(function*({ json, root }: StatusInput) {
  const now = yield* Clock.currentTimeMillis
  const status = yield* statusReport(root, now)
  if (json) return yield* Console.log(JSON.stringify(status))
  if (status.damaged !== null) {
    return yield* Console.log(`index ${status.index}: damaged (${status.damaged}); run \`cairn index\` to rebuild it from the repository`)
  }
  const staleCount = status.stale.added.length + status.stale.changed.length + status.stale.deleted.length
  yield* Console.log([
    status.built ? `index ${status.index}: built ${status.builtAt} (${status.ageSeconds} s ago)` : `index ${status.index}: never built; run \`cairn index\``,
    `${status.chunks} chunks, ${status.embedded} embedded${status.embedder === null ? "" : ` by ${status.embedder}`}` +
      (status.vectorStorage === "sqlite-vec" ? "" : `; vectors stored as ${
        status.vectorStorage === "pgvector"
          ? `pgvector, searched ${status.vectorSearch === "hnsw" ? "through an HNSW index (approximate)" : "exactly"}`
          : "real[] (the server has no pgvector), searched exactly"
      }`),
    ...(status.vectorsUnavailable === null ? [] : [`vector search is off: ${status.vectorsUnavailable}; answers come from the lexical legs`]),
    ...(status.embedderChanged ? ["embedded by another model than cairn.config.json names: the next `cairn index` re-embeds every chunk, and until then questions are not embedded"] : []),
    ...(status.chunkingChanged ? ["built under other chunking settings than cairn.config.json names: the next `cairn index` rebuilds it"] : []),
    staleCount === 0
      ? "up to date with the files on disk"
      : `stale: ${status.stale.changed.length} changed, ${status.stale.added.length} new, ${status.stale.deleted.length} deleted since the last build (run \`cairn index\`)`,
    ...[...status.stale.changed.map((f) => `  changed ${f}`), ...status.stale.added.map((f) => `  new     ${f}`), ...status.stale.deleted.map((f) => `  deleted ${f}`)].slice(0, 20)
  ].join("\n"))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: StatusInput) => withStore(input.store)(runHere(input))
