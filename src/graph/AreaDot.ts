/**
 * The areas of a snapshot and the imports between them, as Graphviz DOT, so a person can look at
 * the structure: one box per area (with its module count), one arrow per pair of areas that import
 * across, labelled with how many import relations it stands for. A module belongs to the area that
 * `contains` it; modules at the root, outside every area, are drawn as `.`.
 */
import type { Snapshot } from "../domain/Snapshot.ts"
import { IMPORT_KINDS } from "./Build.ts"
import { compareIds } from "./Order.ts"

const ROOT = "."

const escape = (text: string): string => text.replace(/\\/g, "\\\\").replace(/"/g, "\\\"")
const quote = (text: string): string => `"${escape(text)}"`

export const areaDot = (snapshot: Snapshot): string => {
  const areaOf = new Map<string, string>()
  const modules = new Map<string, number>()
  const paths = new Map(snapshot.entities.flatMap((entity) => (entity.kind === "area" ? [[entity.id, entity.path] as const] : [])))
  for (const relation of snapshot.relations) {
    const area = paths.get(relation.from)
    if (relation.kind === "contains" && area !== undefined && relation.to.startsWith("module:")) areaOf.set(relation.to, area)
  }
  for (const area of paths.values()) modules.set(area, 0)
  for (const entity of snapshot.entities) {
    if (entity.kind !== "module") continue
    const area = areaOf.get(entity.id) ?? ROOT
    modules.set(area, (modules.get(area) ?? 0) + 1)
  }
  const imports = new Set(IMPORT_KINDS)
  const arrows = new Map<string, { from: string; to: string; count: number }>()
  for (const relation of snapshot.relations) {
    if (!imports.has(relation.kind) || !relation.from.startsWith("module:") || !relation.to.startsWith("module:")) continue
    const from = areaOf.get(relation.from) ?? ROOT
    const to = areaOf.get(relation.to) ?? ROOT
    if (from === to) continue
    const key = `${from}\u0000${to}`
    const arrow = arrows.get(key)
    if (arrow === undefined) arrows.set(key, { from, to, count: 1 })
    else arrow.count += 1
  }
  const lines = ["digraph areas {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];"]
  for (const [area, count] of [...modules].sort((a, b) => compareIds(a[0], b[0]))) {
    lines.push(`  ${quote(area)} [label="${escape(area)}\\n${count} module${count === 1 ? "" : "s"}"];`)
  }
  for (const arrow of [...arrows.values()].sort((a, b) => compareIds(a.from, b.from) || compareIds(a.to, b.to))) {
    lines.push(`  ${quote(arrow.from)} -> ${quote(arrow.to)} [label=${quote(String(arrow.count))}];`)
  }
  lines.push("}")
  return lines.join("\n")
}
