/**
 * The two universes a relation depends on, as canonical strings compared for equality. Both are
 * derived, from the scan in progress or from a previous snapshot, and never stored in a snapshot.
 * The index's scan cache keeps those of the stored snapshot beside it (src/discovery/SnapshotMemo.ts),
 * under a format that must change whenever their derivation here does.
 *
 * - Module universe: module paths, packages (ids, names, directories, entry points, subpath
 *   imports), and the module-resolution compiler options. Equal universes resolve every import
 *   specifier alike.
 * - Resolution universe: the module universe plus document paths, area paths and the names each
 *   module declares (which fixes which modules declare each exported name). Equal universes
 *   resolve every document reference alike.
 */
import type { CompilerOptions, ModuleEntity, PackageEntity, Snapshot } from "../domain/Snapshot.ts"
import { compareIds } from "../domain/Ranking.ts"
import type { ScanCache } from "./ScanCache.ts"
import type { ModuleUniverse, WorkspacePackage } from "./ModuleResolution.ts"

// The default sort orders strings by UTF-16 code units, like `compareIds`, only faster.
const sorted = (values: Iterable<string>): Array<string> => [...values].sort()

export const workspacePackage = (entity: PackageEntity): WorkspacePackage => ({
  id: entity.id,
  name: entity.name,
  directory: entity.directory,
  entryPoints: entity.entryPoints,
  imports: entity.imports
})

export const moduleUniverseKey = (universe: ModuleUniverse): string =>
  JSON.stringify([
    sorted(universe.modules),
    [...universe.packages]
      .sort((a, b) => compareIds(a.id, b.id))
      // Imports only when declared: a universe without them keys as it did before they were read.
      .map((p) => [
        p.id,
        p.name,
        p.directory,
        p.entryPoints.map((e) => [e.subpath, e.target]),
        ...(p.imports === undefined ? [] : [p.imports.map((m) => [m.pattern, m.targets])])
      ]),
    [...universe.compilerOptions]
      .sort((a, b) => compareIds(a.path, b.path))
      .map((o: CompilerOptions) => [o.path, o.baseUrl, o.paths.map((m) => [m.pattern, m.targets])])
  ])

/** Names a module declares and exports (not re-exports, not `default`), in its export order. */
export const declaredNames = (module: ModuleEntity): Array<string> =>
  module.exports.filter((symbol) => symbol.declared && symbol.name !== "default").map((symbol) => symbol.name)

/** Exported name to the modules that declare it, modules sorted. */
export const symbolTable = (modules: Iterable<ModuleEntity>): Map<string, Array<string>> => {
  const table = new Map<string, Array<string>>()
  for (const module of modules) {
    for (const name of new Set(declaredNames(module))) {
      const declarers = table.get(name)
      if (declarers === undefined) table.set(name, [module.path])
      else declarers.push(module.path)
    }
  }
  for (const declarers of table.values()) declarers.sort(compareIds)
  return table
}

/** `declared` gives each module's declared names as one string (a memo may stand behind it). */
export const resolutionKey = (
  moduleKey: string,
  documents: Iterable<string>,
  areas: Iterable<string>,
  modules: ReadonlyArray<ModuleEntity>,
  declared: (module: ModuleEntity) => string = (module) => declaredNames(module).join(",")
): string => {
  // Paths are unique, so sorting the "path:names" strings is as canonical as sorting by path.
  return JSON.stringify([moduleKey, sorted(documents), sorted(areas), sorted(modules.map((m) => `${m.path}:${declared(m)}`))])
}

export interface Keys {
  readonly moduleKey: string
  readonly resolutionKey: string
}

/** The fingerprints of each snapshot a scan on `cache` produced or was offered, once derived. */
export const snapshotKeys = (cache: ScanCache): WeakMap<Snapshot, Keys> => cache.table<Snapshot, Keys>("keys")

/** Both keys as a snapshot implies them. */
export const keysOfSnapshot = (snapshot: Snapshot): Keys => {
  const modules = snapshot.entities.filter((e): e is ModuleEntity => e.kind === "module")
  const moduleKey = moduleUniverseKey({
    modules: new Set(modules.map((m) => m.path)),
    packages: snapshot.entities.filter((e): e is PackageEntity => e.kind === "package").map(workspacePackage),
    compilerOptions: snapshot.compilerOptions
  })
  return {
    moduleKey,
    resolutionKey: resolutionKey(
      moduleKey,
      snapshot.entities.filter((e) => e.kind === "document").map((d) => d.path),
      snapshot.entities.filter((e) => e.kind === "area").map((a) => a.path),
      modules
    )
  }
}
