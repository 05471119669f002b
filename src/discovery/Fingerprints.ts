/**
 * The two universes a relation depends on, fingerprinted. Both are derived (from the scan in
 * progress, or from a previous snapshot) and never stored: a stored fingerprint could be stale.
 *
 * - Module universe: module paths, packages (ids, names, directories, entry points), and the
 *   module-resolution compiler options. Equal universes resolve every import specifier alike.
 * - Resolution universe: the module universe plus document paths, area paths and which modules
 *   declare each exported name. Equal universes resolve every document reference alike.
 */
import type { CompilerOptions, Entity, ModuleEntity, PackageEntity, Snapshot } from "../domain/Snapshot.ts"
import { compareStrings } from "./Canonical.ts"
import type { ModuleUniverse, WorkspacePackage } from "./ModuleResolution.ts"

const sorted = (values: Iterable<string>): Array<string> => [...values].sort(compareStrings)

export const workspacePackage = (entity: PackageEntity): WorkspacePackage => ({
  id: entity.id,
  name: entity.name,
  directory: entity.directory,
  entryPoints: entity.entryPoints
})

export const moduleUniverseKey = (universe: ModuleUniverse): string =>
  JSON.stringify([
    sorted(universe.modules),
    [...universe.packages]
      .sort((a, b) => compareStrings(a.id, b.id))
      .map((p) => [p.id, p.name, p.directory, p.entryPoints.map((e) => [e.subpath, e.target])]),
    [...universe.compilerOptions]
      .sort((a, b) => compareStrings(a.path, b.path))
      .map((o: CompilerOptions) => [o.path, o.baseUrl, o.paths.map((m) => [m.pattern, m.targets])])
  ])

/** Exported name to the modules that declare it (re-exports excluded), modules sorted. */
export const symbolTable = (modules: Iterable<ModuleEntity>): Map<string, Array<string>> => {
  const table = new Map<string, Array<string>>()
  for (const module of modules) {
    for (const symbol of module.exports) {
      if (!symbol.declared || symbol.name === "default") continue
      const declarers = table.get(symbol.name)
      if (declarers === undefined) table.set(symbol.name, [module.path])
      else if (!declarers.includes(module.path)) declarers.push(module.path)
    }
  }
  for (const declarers of table.values()) declarers.sort(compareStrings)
  return table
}

export const resolutionKey = (
  moduleKey: string,
  documents: Iterable<string>,
  areas: Iterable<string>,
  symbols: ReadonlyMap<string, ReadonlyArray<string>>
): string =>
  JSON.stringify([
    moduleKey,
    sorted(documents),
    sorted(areas),
    sorted(symbols.keys()).map((name) => [name, symbols.get(name)])
  ])

const ofKind = <K extends Entity["kind"]>(snapshot: Snapshot, kind: K): Array<Extract<Entity, { kind: K }>> =>
  snapshot.entities.filter((entity): entity is Extract<Entity, { kind: K }> => entity.kind === kind)

/** Both keys as the previous snapshot implies them. */
export const keysOfSnapshot = (snapshot: Snapshot): { moduleKey: string; resolutionKey: string } => {
  const modules = ofKind(snapshot, "module")
  const moduleKey = moduleUniverseKey({
    modules: new Set(modules.map((m) => m.path)),
    packages: ofKind(snapshot, "package").map(workspacePackage),
    compilerOptions: snapshot.compilerOptions
  })
  return {
    moduleKey,
    resolutionKey: resolutionKey(
      moduleKey,
      ofKind(snapshot, "document").map((d) => d.path),
      ofKind(snapshot, "area").map((a) => a.path),
      symbolTable(modules)
    )
  }
}
