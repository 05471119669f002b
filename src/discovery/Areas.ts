/**
 * Areas: the directories that hold modules, down to a configured depth, each `contains` the modules
 * directly assigned to it and the areas one level below it.
 */
import type { AreaEntity, Relation } from "../domain/Snapshot.ts"
import type { Unit } from "./Assemble.ts"
import { dirname, truncate } from "../source/Paths.ts"

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

/** One unit per area: the area and its `contains` relations. */
export const areaUnits = (modulePaths: Iterable<string>, depth: number): Array<Unit> => {
  const modules = [...modulePaths]
  const areas = areaPaths(modules, depth)
  const units = new Map<string, { entity: AreaEntity; relations: Array<Relation>; coverage: [] }>()
  for (const path of areas) {
    units.set(`area:${path}`, { entity: { id: `area:${path}`, kind: "area", path, evidence: [] }, relations: [], coverage: [] })
  }
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
    if (parent !== "") units.get(`area:${parent}`)!.relations.push(contains(`area:${parent}`, `area:${area}`, area))
  }
  for (const path of modules) {
    const area = areaOf(path, depth)
    if (area !== undefined) units.get(`area:${area}`)!.relations.push(contains(`area:${area}`, `module:${path}`, path))
  }
  return [...units.values()]
}
