/** What `cairn search` does (its flags are declared in SearchCommand.ts, so this module loads only when it runs). */
import type { SearchInput } from "./SearchCommand.ts"
import { Console, Effect, Schema } from "effect"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { search, SearchResponse } from "../search.ts"
import { answering, questionFrom } from "./Answering.ts"
import { withStore } from "../indexLocation.ts"

/** The ranking for people: one block per result, its lines, then what was searched. */
export const renderSearch = (response: SearchResponse): string => {
  const lines: Array<string> = []
  response.results.forEach((result, i) => {
    const name = result.symbol === undefined ? result.title : `${result.symbol} in ${result.title}`
    lines.push(`${response.offset + i + 1}. ${result.path}:${result.lineStart}-${result.lineEnd}  ${name}  (${result.kind}, score ${result.score})`)
    if (result.components !== undefined) {
      lines.push(`   ranks: ${Object.entries(result.components.ranks).map(([leg, rank]) => `${leg} ${rank}`).join(", ") || "none"}`)
    }
    for (const line of result.excerpt.split("\n")) lines.push(`   ${line}`)
    const { imports, importedBy, calls, calledBy, testSiblings } = result.related
    if (testSiblings.length > 0) lines.push(`   tests: ${testSiblings.join(", ")}`)
    if (calledBy.length > 0) lines.push(`   called by: ${calledBy.join(", ")}`)
    if (calls.length > 0) lines.push(`   calls: ${calls.join(", ")}`)
    if (importedBy.length > 0) lines.push(`   imported by: ${importedBy.join(", ")}`)
    if (imports.length > 0) lines.push(`   imports: ${imports.join(", ")}`)
  })
  if (response.results.length === 0) lines.push(`no ${response.kinds.join(" or ")} results for this query${response.offset > 0 ? ` past ${response.offset}` : ""}`)
  for (const gap of response.gaps) lines.push(`gap: ${gap}`)
  lines.push(`${response.results.length} of ${response.total} ranked; index lag ${response.indexHealth.lagSeconds} s, ` +
    `${response.indexHealth.filesChanged ?? "unknown"} files changed since the build`)
  return lines.join("\n")
}

const runHere = Effect.fn("cli.search")(function*({ explain, json, kind, limit, noRefresh, offset, query, root, scope }: SearchInput) {
  const config = yield* RepositoryConfig.read(root)
  const text = yield* questionFrom(query)
  const index = yield* answering(root, noRefresh, config)
  const response = yield* search({
    query: text,
    limit,
    offset,
    explain,
    ...(kind.length > 0 ? { kinds: kind } : {}),
    ...(scope.length > 0 ? { scope } : {})
  }).pipe(Effect.provide(index))
  yield* Console.log(json ? JSON.stringify(Schema.encodeSync(SearchResponse)(response)) : renderSearch(response))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: SearchInput) => withStore(input.store)(runHere(input))
