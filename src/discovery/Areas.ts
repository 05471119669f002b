/**
 * Areas: the directories that hold modules, down to a configured depth, each `contains` the modules
 * directly assigned to it and the areas one level below it.
 */
import type { AreaEntity, Relation } from "../domain/Snapshot.ts"
import { dirname, truncate } from "./Paths.ts"

/** The area a module belongs to, or undefined for a module at the root. */
export const areaOf = (modulePath: string, depth: number): string | undefined => {
  const directory = dirname(modulePath)
  return directory === "" ? undefined : truncate(directory, depth)
}

/** Every area path the modules imply: each module's area and all of that area's ancestors. */
export const areaPaths = (modulePaths: Iterable<string>, depth: number): Set<string> => {
  const areas = new Set<string>()
  for (const path of modulePaths) {
    for (let area = areaOf(path, depth); area !== undefined && area !== "" && !areas.has(area); area = dirname(area)) {
      areas.add(area)
    }
  }
  return areas
}

export const areaGraph = (
  modulePaths: Iterable<string>,
  depth: number
): { entities: Array<AreaEntity>; relations: Array<Relation> } => {
  const modules = [...modulePaths]
  const areas = areaPaths(modules, depth)
  const entities: Array<AreaEntity> = [...areas].map((path) => ({ id: `area:${path}`, kind: "area", path, evidence: [] }))
  const relations: Array<Relation> = []
  const contains = (from: string, to: string, path: string): Relation => ({
    kind: "contains",
    from,
    to,
    status: "observed",
    confidence: "exact",
    evidence: [{ path }]
  })
  for (const area of areas) {
    const parent = dirname(area)
    if (parent !== "") relations.push(contains(`area:${parent}`, `area:${area}`, area))
  }
  for (const path of modules) {
    const area = areaOf(path, depth)
    if (area !== undefined) relations.push(contains(`area:${area}`, `module:${path}`, path))
  }
  return { entities, relations }
}
