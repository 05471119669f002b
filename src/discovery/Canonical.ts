/**
 * Canonical shapes: every snapshot value is rebuilt here with its keys in schema order and its
 * lists sorted, whether it was just analysed or reused from a previous snapshot. Serialising a
 * canonical value with `JSON.stringify` then gives the same bytes for the same facts.
 */
import type {
  AreaEntity,
  Coverage,
  DocumentEntity,
  Entity,
  Evidence,
  ExternalEntity,
  ModuleEntity,
  PackageEntity,
  Relation
} from "../domain/Snapshot.ts"
import { detached } from "../source/Detached.ts"
import { compareIds } from "../domain/Ranking.ts"


export const evidence = (item: Evidence): Evidence => {
  const out: { path: string; line?: number; contentHash?: string; text?: string; symbol?: string; via?: string } = { path: item.path }
  if (item.line !== undefined) out.line = item.line
  if (item.contentHash !== undefined) out.contentHash = item.contentHash
  // Texts are excerpts of a source; detached, so the snapshot does not keep the file.
  if (item.text !== undefined) out.text = detached(item.text)
  if (item.symbol !== undefined) out.symbol = detached(item.symbol)
  if (item.via !== undefined) out.via = item.via
  return out
}

const compareEvidence = (a: Evidence, b: Evidence): number =>
  compareIds(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0) || compareIds(a.text ?? "", b.text ?? "") ||
  compareIds(a.symbol ?? "", b.symbol ?? "") || compareIds(a.via ?? "", b.via ?? "")

/** Sorted by path, line, text, symbol, with exact duplicates removed. */
export const evidenceList = (items: ReadonlyArray<Evidence>): Array<Evidence> => {
  const sorted = items.map(evidence).sort(compareEvidence)
  return sorted.filter((item, index) => index === 0 || compareEvidence(sorted[index - 1]!, item) !== 0)
}

export const relation = (value: Relation): Relation => ({
  kind: value.kind,
  from: value.from,
  to: value.to,
  status: value.status,
  confidence: value.confidence,
  evidence: evidenceList(value.evidence)
})

export const compareRelations = (a: Relation, b: Relation): number =>
  compareIds(a.from, b.from) || compareIds(a.kind, b.kind) || compareIds(a.to, b.to)

export const coverage = (value: Coverage): Coverage => ({
  analyzer: value.analyzer,
  scope: value.scope,
  status: value.status,
  reason: value.reason
})

export const compareCoverage = (a: Coverage, b: Coverage): number =>
  compareIds(a.analyzer, b.analyzer) || compareIds(a.scope, b.scope) || compareIds(a.status, b.status) ||
  compareIds(a.reason, b.reason)

const moduleEntity = (value: ModuleEntity): ModuleEntity => ({
  id: value.id,
  kind: "module",
  path: value.path,
  evidence: value.evidence.map(evidence),
  language: value.language,
  exports: value.exports.map((e) => ({
    name: detached(e.name),
    line: e.line,
    declared: e.declared,
    typeOnly: e.typeOnly,
    ...(e.from === undefined ? {} : { from: detached(e.from) }),
    ...(e.imported === undefined ? {} : { imported: detached(e.imported) })
  })),
  declarations: value.declarations.map((d) => ({ name: detached(d.name), kind: d.kind, line: d.line }))
})

const documentEntity = (value: DocumentEntity): DocumentEntity => {
  const frontmatter: Record<string, string> = {}
  for (const key of Object.keys(value.frontmatter).sort(compareIds)) frontmatter[key] = value.frontmatter[key]!
  return {
    id: value.id,
    kind: "document",
    path: value.path,
    evidence: value.evidence.map(evidence),
    title: detached(value.title),
    headings: value.headings.map((h) => ({ depth: h.depth, text: detached(h.text), line: h.line })),
    summary: detached(value.summary),
    wordCount: value.wordCount,
    frontmatter,
    generatedRegions: value.generatedRegions.map((r) => ({ startLine: r.startLine, endLine: r.endLine })),
    evidenceTruncated: value.evidenceTruncated
  }
}

const packageEntity = (value: PackageEntity): PackageEntity => ({
  id: value.id,
  kind: "package",
  path: value.path,
  evidence: value.evidence.map(evidence),
  name: value.name,
  version: value.version,
  directory: value.directory,
  entryPoints: value.entryPoints.map((e) => ({ subpath: e.subpath, target: e.target })),
  ...(value.imports === undefined ? {} : { imports: value.imports.map((m) => ({ pattern: m.pattern, targets: [...m.targets] })) }),
  workspaces: [...value.workspaces]
})

const areaEntity = (value: AreaEntity): AreaEntity => ({
  id: value.id,
  kind: "area",
  path: value.path,
  evidence: value.evidence.map(evidence)
})

const externalEntity = (value: ExternalEntity): ExternalEntity => ({
  id: value.id,
  kind: "external",
  name: value.name,
  evidence: value.evidence.map(evidence)
})

export const entity = (value: Entity): Entity => {
  switch (value.kind) {
    case "module":
      return moduleEntity(value)
    case "document":
      return documentEntity(value)
    case "package":
      return packageEntity(value)
    case "area":
      return areaEntity(value)
    case "external":
      return externalEntity(value)
  }
}
