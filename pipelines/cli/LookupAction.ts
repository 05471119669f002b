/** What `cairn lookup` does (its flags are declared in LookupCommand.ts, so this module loads only when it runs). */
import type { LookupInput } from "./LookupCommand.ts"
import { Console, Effect, Option, Schema } from "effect"
import { committedSnapshot } from "../committedSnapshot.ts"
import { lookup, LookupResponse } from "../lookup.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { answering } from "./Answering.ts"
import { withStore } from "../indexLocation.ts"

/** The entity for people: what it is, then its documents, neighbours and evidence. */
export const renderLookup = (response: LookupResponse): string => {
  const { entity } = response
  const lines = [`${entity.id}  ${entity.title}`]
  if (entity.summary !== undefined) lines.push(`  ${entity.summary}`)
  const facts = [
    entity.area === null ? undefined : `area ${entity.area}`,
    entity.package === null ? undefined : `package ${entity.package}`,
    entity.canonicality === null ? undefined : `canonicality ${entity.canonicality}`,
    entity.contentHash === null ? undefined : `content ${entity.contentHash.slice(0, 12)}`
  ].filter((fact) => fact !== undefined)
  if (facts.length > 0) lines.push(`  ${facts.join(", ")}`)
  if (entity.symbols.length > 0) lines.push(`  exports ${entity.symbols.join(", ")}`)
  if (response.alternatives.length > 0) lines.push(`  also named: ${response.alternatives.join(", ")}`)
  for (const document of response.documents ?? []) {
    lines.push(`document ${document.path} (${document.relation}, canonicality ${document.canonicality}): ${document.title}`)
  }
  for (const group of response.neighbours ?? []) {
    const shown = group.entries.map((n) => `${n.direction === "out" ? "->" : "<-"} ${n.id}${n.distance > 1 ? ` (${n.distance} hops, via ${n.via})` : ""}`)
    lines.push(`${group.relation} (${group.found}${group.found > group.entries.length ? `, ${group.entries.length} shown` : ""}):`, ...shown.map((s) => `  ${s}`))
  }
  for (const item of response.evidence) {
    lines.push(`evidence ${item.path}${item.contentHash === null ? "" : ` ${item.contentHash.slice(0, 12)}`}`)
    if (item.excerpt !== undefined) lines.push(...item.excerpt.split("\n").map((line) => `  | ${line}`))
  }
  if (response.budget !== undefined) {
    const b = response.budget
    lines.push(`${b.tokens.total}/${b.budgetTokens} tokens (${b.tokenMethod})${b.fits ? "" : ", does not fit: the undroppable core alone is larger"}` +
      `${b.dropped.length > 0 ? `; dropped ${b.dropped.join(", ")}` : ""}`)
  }
  return lines.join("\n")
}

const runHere = Effect.fn("cli.lookup")(function*({ budget, depth, id, json, noRefresh, path, ref, root, symbol }: LookupInput) {
  const config = yield* RepositoryConfig.read(root)
  const index = yield* answering(root, noRefresh, config)
  const snapshot = yield* committedSnapshot(root)
  const request = {
    ...Option.match(id, { onNone: () => ({}), onSome: (value) => ({ id: value }) }),
    ...Option.match(path, { onNone: () => ({}), onSome: (value) => ({ path: value }) }),
    ...Option.match(symbol, { onNone: () => ({}), onSome: (value) => ({ symbol: value }) }),
    ...Option.match(ref, { onNone: () => ({}), onSome: (value) => ({ ref: value }) }),
    ...Option.match(budget, { onNone: () => ({}), onSome: (value) => ({ budgetTokens: value }) }),
    depth
  }
  const response = yield* lookup(request, snapshot).pipe(Effect.provide(index))
  yield* Console.log(json ? JSON.stringify(Schema.encodeSync(LookupResponse)(response)) : renderLookup(response))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: LookupInput) => withStore(input.store)(runHere(input))
