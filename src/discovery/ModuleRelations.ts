/**
 * A module's outgoing relations: each reference resolved to an endpoint, references to the same
 * endpoint with the same kind merged into one relation carrying every line as evidence. Because the
 * evidence keeps each specifier as written (and, for a call, the export called), relations can be
 * re-resolved against a changed universe without parsing the file again.
 *
 * Two kinds are derived rather than read: a `calls` relation joins the caller to the module an
 * imported binding resolves to (calls into packages outside the tree are not kept), and a test that
 * imports a module of its own name (`pack.test.ts` and `pack.ts`) gets a `test_sibling` relation
 * to it, carrying the evidence of those imports.
 */
import type { Evidence, Relation } from "../domain/Snapshot.ts"
import { isTestOf, isTestPath } from "../source/TestFiles.ts"
import { evidenceList } from "./Canonical.ts"
import type { ModuleReference, ModuleReferenceKind } from "./FileAnalysis.ts"
import type { Resolver } from "./ModuleResolution.ts"

/** Kinds read from a reference of the file, which its evidence can re-resolve. */
const REFERENCE_KINDS: ReadonlySet<string> = new Set<ModuleReferenceKind>([
  "imports",
  "imports-type",
  "re-exports",
  "imports-dynamic",
  "requires",
  "calls"
])

/** Kinds that load the other module, of which a test's make it a test of its subject. */
const LOAD_KINDS: ReadonlySet<string> = new Set(["imports", "imports-type", "imports-dynamic", "requires"])

export const TEST_SIBLING = "test_sibling"

/** Every kind a module's unit holds: those it reads and those derived from them. */
export const MODULE_RELATION_KINDS: ReadonlySet<string> = new Set([...REFERENCE_KINDS, TEST_SIBLING])

const MODULE = "module:"

export const moduleRelations = (
  path: string,
  references: ReadonlyArray<ModuleReference>,
  resolve: Resolver
): Array<Relation> => {
  const from = `${MODULE}${path}`
  const grouped = new Map<string, { kind: string; to: string; evidence: Array<Evidence> }>()
  const add = (kind: string, to: string, evidence: Evidence) => {
    const key = `${kind}\u0000${to}`
    let group = grouped.get(key)
    if (group === undefined) {
      group = { kind, to, evidence: [] }
      grouped.set(key, group)
    }
    group.evidence.push(evidence)
  }
  for (const reference of references) {
    const resolved = resolve(path, reference.specifier)
    for (const to of typeof resolved === "string" ? [resolved] : resolved) {
      if (reference.kind === "calls") {
        if (to.startsWith(MODULE)) add("calls", to, { path, line: reference.line, text: reference.specifier, symbol: reference.symbol ?? "" })
      } else if (reference.symbol !== undefined) {
        add(reference.kind, to, { path, line: reference.line, text: reference.specifier, symbol: reference.symbol })
      } else {
        add(reference.kind, to, { path, line: reference.line, text: reference.specifier })
      }
    }
  }
  if (isTestPath(path)) {
    for (const group of [...grouped.values()]) {
      if (LOAD_KINDS.has(group.kind) && group.to.startsWith(MODULE) && isTestOf(path, group.to.slice(MODULE.length))) {
        for (const item of group.evidence) add(TEST_SIBLING, group.to, item)
      }
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
    !REFERENCE_KINDS.has(relation.kind) ? [] : relation.evidence.flatMap((item) => {
      const kind = relation.kind as ModuleReferenceKind
      const reference: ModuleReference = item.symbol === undefined
        ? { kind, specifier: item.text ?? "", line: item.line ?? 0 }
        : { kind, specifier: item.text ?? "", line: item.line ?? 0, symbol: item.symbol }
      const key = `${reference.kind}\u0000${reference.line}\u0000${reference.specifier}\u0000${reference.symbol ?? ""}`
      if (seen.has(key)) return []
      seen.add(key)
      return [reference]
    })
  )
}
