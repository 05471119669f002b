/**
 * Package entities from manifests, with `depends-on` to workspace packages or external packages, and
 * `contains` to the modules beneath each package (a nested package takes its own modules).
 */
import type { PackageEntity, Relation } from "../domain/Snapshot.ts"
import type { Unit } from "./Assemble.ts"
import type { ManifestFacts } from "./FileAnalysis.ts"
import { ancestors, dirname, resolve } from "../source/Paths.ts"
import { compareIds } from "../domain/Ranking.ts"

export interface Manifest {
  readonly path: string
  readonly contentHash: string
  readonly facts: ManifestFacts
}

/**
 * Ids are `package:<name>`; a manifest without a name, or sharing its name with another, is named by
 * its directory instead (`package:.` for the root), so ids never depend on listing order.
 */
export const packageEntities = (manifests: ReadonlyArray<Manifest>): Array<PackageEntity> => {
  const nameCount = new Map<string, number>()
  for (const manifest of manifests) {
    if (manifest.facts.name !== null) nameCount.set(manifest.facts.name, (nameCount.get(manifest.facts.name) ?? 0) + 1)
  }
  return manifests.map((manifest): PackageEntity => {
    const directory = dirname(manifest.path)
    const { name } = manifest.facts
    const imports = manifest.facts.imports.flatMap(({ pattern, targets }) => {
      const inside = targets.flatMap((target) => resolve(directory, target) ?? [])
      return inside.length === 0 ? [] : [{ pattern, targets: inside }]
    })
    const id = name !== null && nameCount.get(name) === 1 ? `package:${name}` : `package:${directory === "" ? "." : directory}`
    return {
      id,
      kind: "package",
      path: manifest.path,
      evidence: [{ path: manifest.path, contentHash: manifest.contentHash }],
      name,
      version: manifest.facts.version,
      directory,
      entryPoints: manifest.facts.entryPoints.flatMap((entry) => {
        const target = resolve(directory, entry.target)
        return target === undefined ? [] : [{ subpath: entry.subpath, target }]
      }),
      // Only when declared, so a package without them is the entity it always was.
      ...(imports.length === 0 ? {} : { imports }),
      workspaces: [...manifest.facts.workspaces]
    }
  }).sort((a, b) => compareIds(a.id, b.id))
}

/** One unit per package: the entity, its `depends-on` and its `contains` relations. */
export const packageUnits = (
  manifests: ReadonlyArray<Manifest>,
  packages: ReadonlyArray<PackageEntity>,
  modulePaths: Iterable<string>
): Array<Unit> => {
  const relations = new Map<string, Array<Relation>>(packages.map((entity) => [entity.id, []]))
  for (const relation of [...dependencyRelations(manifests, packages), ...containsRelations(packages, modulePaths)]) {
    relations.get(relation.from)!.push(relation)
  }
  return packages.map((entity) => ({ entity, relations: relations.get(entity.id)!, coverage: [] }))
}

export const dependencyRelations = (
  manifests: ReadonlyArray<Manifest>,
  packages: ReadonlyArray<PackageEntity>
): Array<Relation> => {
  const byPath = new Map(packages.map((entity) => [entity.path, entity]))
  const workspaceIds = new Map(
    packages.filter((entity) => entity.name !== null && entity.id === `package:${entity.name}`)
      .map((entity) => [entity.name!, entity.id])
  )
  const relations = new Map<string, Relation>()
  for (const manifest of manifests) {
    const from = byPath.get(manifest.path)!.id
    for (const dependency of manifest.facts.dependencies) {
      const to = workspaceIds.get(dependency.name) ?? `external:${dependency.name}`
      const key = `${from}\u0000${to}`
      const evidence = { path: manifest.path, line: dependency.line, text: dependency.name }
      const held = relations.get(key)
      relations.set(key, {
        kind: "depends-on",
        from,
        to,
        status: "declared",
        confidence: "exact",
        evidence: held === undefined ? [evidence] : [...held.evidence, evidence]
      })
    }
  }
  return [...relations.values()]
}

export const containsRelations = (
  packages: ReadonlyArray<PackageEntity>,
  modulePaths: Iterable<string>
): Array<Relation> => {
  const byDirectory = new Map(packages.map((entity) => [entity.directory, entity]))
  const relations: Array<Relation> = []
  for (const path of modulePaths) {
    const owner = ancestors(path).map((directory) => byDirectory.get(directory)).find((entity) => entity !== undefined)
    if (owner === undefined) continue
    relations.push({
      kind: "contains",
      from: owner.id,
      to: `module:${path}`,
      status: "observed",
      confidence: "exact",
      evidence: [{ path }]
    })
  }
  return relations
}
