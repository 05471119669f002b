/**
 * A module's outgoing relations: each reference resolved to an endpoint, references to the same
 * endpoint with the same kind merged into one relation carrying every line as evidence. Because the
 * evidence keeps each specifier as written, relations can be re-resolved against a changed universe
 * without parsing the file again.
 */
import type { Evidence, Relation } from "../domain/Snapshot.ts"
import { evidenceList } from "./Canonical.ts"
import type { ModuleReference, ModuleReferenceKind } from "./FileAnalysis.ts"
import type { Resolver } from "./ModuleResolution.ts"

export const MODULE_RELATION_KINDS: ReadonlySet<string> = new Set<ModuleReferenceKind>([
  "imports",
  "imports-type",
  "re-exports",
  "imports-dynamic",
  "requires"
])

export const moduleRelations = (
  path: string,
  references: ReadonlyArray<ModuleReference>,
  resolve: Resolver
): Array<Relation> => {
  const from = `module:${path}`
  const grouped = new Map<string, { kind: string; to: string; evidence: Array<Evidence> }>()
  for (const reference of references) {
    const resolved = resolve(path, reference.specifier)
    for (const to of typeof resolved === "string" ? [resolved] : resolved) {
      const key = `${reference.kind}\u0000${to}`
      let group = grouped.get(key)
      if (group === undefined) {
        group = { kind: reference.kind, to, evidence: [] }
        grouped.set(key, group)
      }
      group.evidence.push({ path, line: reference.line, text: reference.specifier })
    }
  }
  return [...grouped.values()].map((group) => ({
    kind: group.kind,
    from,
    to: group.to,
    status: "observed",
    confidence: "exact",
    evidence: evidenceList(group.evidence)
  }))
}

/** The references a module's previous relations were built from, recovered from their evidence. */
export const referencesOf = (relations: ReadonlyArray<Relation>): Array<ModuleReference> => {
  // One reference may stand behind several relations (a Go import of a package of several files).
  const seen = new Set<string>()
  return relations.flatMap((relation) =>
    relation.evidence.flatMap((item) => {
      const reference = { kind: relation.kind as ModuleReferenceKind, specifier: item.text ?? "", line: item.line ?? 0 }
      const key = `${reference.kind}\u0000${reference.line}\u0000${reference.specifier}`
      if (seen.has(key)) return []
      seen.add(key)
      return [reference]
    })
  )
}
