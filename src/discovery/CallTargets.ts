/**
 * Calls followed through re-exports. A module's `calls` relation is first resolved to the module
 * its import names; when that module only re-exports the callee (`export { f } from "./f"`,
 * `export { f as g }`, `export * from`, `export * as ns from`), the call is moved on to the module
 * that declares it, and each evidence item keeps the module it went through as `via`. A call a
 * barrel cannot account for (the name is not exported, two `export *` offer it, a cycle, a package
 * outside the tree) stays on the module the import names.
 *
 * It reads units already resolved, so a reused unit of a warm scan or a patch goes through it as a
 * cold scan's does: every item is first put back on the module its import names (`via`, when
 * present), then followed again. A unit none of whose calls move keeps its relations array, which
 * assembly recognises and does not hash again.
 */
import type { Evidence, ExportedSymbol, Relation } from "../domain/Snapshot.ts"
import type { Unit } from "./Assemble.ts"
import { evidenceList } from "./Canonical.ts"

/** What following a call needs of a module: its exports and the relations leaving it. */
export interface ModuleView {
  readonly exports: ReadonlyArray<ExportedSymbol>
  readonly relations: ReadonlyArray<Relation>
}

/** A module by entity id; undefined for anything the tree does not hold as a module. */
export type ModuleLookup = (id: string) => ModuleView | undefined

/** Re-export hops followed at most from one call; real barrels chain two or three. */
const MAX_HOPS = 16

const MODULE = "module:"

interface Shape {
  readonly declared: ReadonlySet<string>
  readonly reexported: ReadonlyMap<string, ExportedSymbol>
  /** Modules `export *` reads, in id order. */
  readonly stars: ReadonlyArray<string>
  /** A re-export's specifier to the module it resolved to. */
  readonly targets: ReadonlyMap<string, string>
}

const shapeOf = (view: ModuleView): Shape => {
  const declared = new Set<string>()
  const reexported = new Map<string, ExportedSymbol>()
  for (const symbol of view.exports) {
    if (symbol.declared) declared.add(symbol.name)
    else if (symbol.from !== undefined && !reexported.has(symbol.name)) reexported.set(symbol.name, symbol)
  }
  const stars = new Set<string>()
  const targets = new Map<string, string>()
  for (const relation of view.relations) {
    if (relation.kind !== "re-exports" || !relation.to.startsWith(MODULE)) continue
    for (const item of relation.evidence) {
      if (item.text !== undefined && !targets.has(item.text)) targets.set(item.text, relation.to)
      if (item.symbol === "*") stars.add(relation.to)
    }
  }
  return { declared, reexported, stars: [...stars].sort(), targets }
}

/** What of a module following a call reads, as one string: equal strings follow every call alike. */
export const exportShape = (view: ModuleView): string => {
  const shape = shapeOf(view)
  return JSON.stringify([
    [...shape.declared].sort(),
    [...shape.reexported.values()].map((symbol) => [symbol.name, symbol.from, symbol.imported]).sort(),
    shape.stars,
    [...shape.targets].sort()
  ])
}

/**
 * The module declaring `symbol` (`f`, `default`, `Name.member`) as module `id` exports it, or
 * undefined when it cannot be told. Each answer depends on the modules alone, never on which
 * calls were asked before: a scan and a patch of the same tree agree.
 */
export const declarerResolver = (lookup: ModuleLookup): (id: string, symbol: string) => string | undefined => {
  const shapes = new Map<string, Shape | undefined>()
  const shape = (id: string): Shape | undefined => {
    if (!shapes.has(id)) {
      const view = lookup(id)
      shapes.set(id, view === undefined ? undefined : shapeOf(view))
    }
    return shapes.get(id)
  }
  const answers = new Map<string, string | undefined>()
  return (id, symbol) => {
    const key = `${id}\u0000${symbol}`
    if (answers.has(key)) return answers.get(key)
    // ECMAScript's resolution set: a (module, name) met again on the way is a cycle and resolves
    // to nothing on that path. It lives for one question, so no answer leans on an earlier one.
    const visiting = new Set<string>()
    const follow = (module: string, name: string, hops: number): string | undefined => {
      const here = shape(module)
      const step = `${module}\u0000${name}`
      if (here === undefined || hops > MAX_HOPS || visiting.has(step)) return undefined
      visiting.add(step)
      const dot = name.indexOf(".")
      const head = dot < 0 ? name : name.slice(0, dot)
      const member = dot < 0 ? "" : name.slice(dot)
      if (here.declared.has(head)) return module
      const reexport = here.reexported.get(head)
      if (reexport !== undefined) {
        const target = here.targets.get(reexport.from!)
        if (target === undefined) return undefined
        // `export * as ns`: `ns.f` is `f` of that module; `ns` itself is no declaration.
        if (reexport.imported === "*") return member === "" ? undefined : follow(target, member.slice(1), hops + 1)
        return follow(target, `${reexport.imported ?? head}${member}`, hops + 1)
      }
      // `export *` never passes on a default, and a name two of them offer is exported by neither.
      if (head === "default") return undefined
      let found: string | undefined
      for (const star of here.stars) {
        const declarer = follow(star, name, hops + 1)
        if (declarer === undefined || declarer === found) continue
        if (found !== undefined) return undefined
        found = declarer
      }
      return found
    }
    const answer = follow(id, symbol, 0)
    answers.set(key, answer)
    return answer
  }
}

/** `relations` of the module `from`, its calls moved on to the modules that declare them. */
export const followCalls = (
  from: string,
  relations: ReadonlyArray<Relation>,
  declarerOf: (id: string, symbol: string) => string | undefined
): ReadonlyArray<Relation> => {
  if (!relations.some((relation) => relation.kind === "calls")) return relations
  const rest: Array<Relation> = []
  const byTarget = new Map<string, Array<Evidence>>()
  let moved = false
  for (const relation of relations) {
    if (relation.kind !== "calls") {
      rest.push(relation)
      continue
    }
    for (const item of relation.evidence) {
      const named = item.via ?? relation.to
      const declarer = item.symbol === undefined ? undefined : declarerOf(named, item.symbol)
      // A call that comes back to its own module through a barrel is no edge to another file.
      const to = declarer === undefined || declarer === from ? named : declarer
      const via = to === named ? undefined : named
      if (to !== relation.to || via !== item.via) moved = true
      const { via: _, ...plain } = item
      const items = byTarget.get(to) ?? []
      items.push(via === undefined ? plain : { ...plain, via })
      byTarget.set(to, items)
    }
  }
  if (!moved) return relations
  const calls = [...byTarget].map(([to, evidence]): Relation => ({
    kind: "calls",
    from,
    to,
    status: "observed",
    confidence: "exact",
    evidence: evidenceList(evidence)
  }))
  return [...rest, ...calls]
}

/** Every module unit's calls followed over the modules among `units`; other units as they are. */
export const followUnitCalls = (units: ReadonlyArray<Unit>): Array<Unit> => {
  const views = new Map<string, ModuleView>()
  for (const unit of units) if (unit.entity.kind === "module") views.set(unit.entity.id, { exports: unit.entity.exports, relations: unit.relations })
  const declarerOf = declarerResolver((id) => views.get(id))
  return units.map((unit) => {
    const relations = followCalls(unit.entity.id, unit.relations, declarerOf)
    return relations === unit.relations ? unit : { ...unit, relations }
  })
}
