/**
 * Discovery benchmark. Builds a generated repository (10,000 TypeScript modules in a 20-package
 * workspace, 2,000 Markdown documents with frontmatter, links, wikilinks, mentions and relations) in
 * a temporary directory, then times a cold scan, a warm scan of the unchanged tree, and a warm scan
 * after one module changed, and prints files per second and peak memory.
 *
 *   npm run bench:discover                      generated repository
 *   npm run bench:discover -- --root DIR        an existing checkout instead (one file is touched and restored)
 *   npm run bench:discover -- --generate DIR    only write the generated repository to DIR
 *   ... --packages N --documents M               its size: N packages of 500 modules (20), M documents (2,000)
 *
 * Warm scans run twice: offered the previous snapshot only (every file re-read and re-hashed), and
 * with the in-process hash cache as well (unchanged stamps skip the read).
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { Effect } from "effect"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"
import { discover } from "../pipelines/discover.ts"
import type { Snapshot } from "../src/domain/Snapshot.ts"
import * as ScanCache from "../src/discovery/ScanCache.ts"

const sizeFlag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name)
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a positive whole number`)
  return value
}

const PACKAGES = sizeFlag("--packages", 20)
const MODULES_PER_PACKAGE = 500
const AREAS = 10
const SUBDIRECTORIES = 5
const DOCUMENTS = sizeFlag("--documents", 2000)
const DOCUMENT_SECTIONS = 40

/** Park-Miller: a seeded generator so every run builds the same repository. */
const random = (seed: number) => {
  let state = seed
  return (n: number): number => {
    state = (state * 16807) % 2147483647
    return state % n
  }
}

const WORDS = (
  "request response cache index token budget ranking query document module package service layer " +
  "stream effect schema snapshot relation entity coverage owner decision runbook incident deploy " +
  "rollback retry timeout queue worker schedule metric trace span latency throughput storage " +
  "replica shard partition lease lock migration version release feature flag config secret audit"
).split(" ")

const sentence = (next: (n: number) => number, length: number): string => {
  const words = Array.from({ length }, () => WORDS[next(WORDS.length)]!)
  return `${words[0]!.charAt(0).toUpperCase()}${words[0]!.slice(1)} ${words.slice(1).join(" ")}.`
}

interface LeafModule {
  readonly pkg: number
  readonly area: number
  readonly sub: number
  readonly index: number
  readonly path: string
}

const leafName = (pkg: number, area: number, sub: number, index: number): string =>
  `packages/pkg-${pkg}/src/area-${area}/sub-${sub}/module-${index}.ts`

const symbolOf = (m: LeafModule): string => `compute${m.pkg}x${m.area}x${m.sub}x${m.index}`

const moduleText = (m: LeafModule, leaves: ReadonlyArray<LeafModule>, next: (n: number) => number): string => {
  const id = `${m.pkg}x${m.area}x${m.sub}x${m.index}`
  const imports: Array<string> = []
  const sibling = m.index > 0 ? m.index - 1 : m.index + 1
  imports.push(`import { compute${m.pkg}x${m.area}x${m.sub}x${sibling} } from "./module-${sibling}.js"`)
  const other = leaves[next(leaves.length)]!
  if (other.pkg === m.pkg) {
    imports.push(`import type { Shape${other.pkg}x${other.area}x${other.sub}x${other.index} } from "../../area-${other.area}/sub-${other.sub}/module-${other.index}.js"`)
  } else {
    imports.push(`import { compute${other.pkg}x${other.area}x${other.sub}x${other.index} } from "@bench/pkg-${other.pkg}/area-${other.area}/sub-${other.sub}/module-${other.index}"`)
  }
  imports.push(`import * as Shared from "@bench/pkg-${next(PACKAGES)}"`)
  imports.push(next(2) === 0 ? `import { Effect, Schema } from "effect"` : `import { debounce } from "lodash-es"`)
  if (next(4) === 0) imports.push(`import * as NodeFs from "node:fs"`)
  if (next(10) === 0) imports.push(`const lazy = () => import("./module-${sibling}.js")`)
  const fields = Array.from({ length: 4 + next(4) }, (_, i) => `  readonly ${WORDS[next(WORDS.length)]}${i}: ${["string", "number", "boolean", "ReadonlyArray<string>"][next(4)]}`)
  const body = Array.from({ length: 12 + next(20) }, (_, i) =>
    `  const step${i} = input.${fields.length > 0 ? `${WORDS[next(WORDS.length)]}` : "x"} ?? ${next(1000)} // ${sentence(next, 6)}`)
  return `/**
 * ${sentence(next, 12)}
 * ${sentence(next, 10)}
 */
${imports.join("\n")}

export interface Shape${id} {
${fields.join("\n")}
}

export const DEFAULT_${id} = {
  name: "${WORDS[next(WORDS.length)]}-${id}",
  limit: ${next(500)},
  enabled: ${next(2) === 0}
} as const

function normalise${id}(value: number): number {
  return Math.max(0, Math.min(1, value / ${1 + next(99)}))
}

export function ${symbolOf(m)}(input: Record<string, unknown>): number {
${body.join("\n")}
  return normalise${id}(${body.length})
}

export class Service${id} {
  private readonly cache = new Map<string, number>()

  lookup(key: string): number | undefined {
    return this.cache.get(key)
  }

  store(key: string, value: number): void {
    this.cache.set(key, normalise${id}(value))
  }
}
`
}

const documentText = (
  index: number,
  leaves: ReadonlyArray<LeafModule>,
  documents: ReadonlyArray<string>,
  next: (n: number) => number
): string => {
  const self = documents[index]!
  const section = Number(/section-(\d+)/.exec(self)?.[1] ?? 0)
  const link = () => {
    const target = documents[next(documents.length)]!
    return NodePath.posix.relative(NodePath.posix.dirname(self), target)
  }
  const stem = () => NodePath.posix.basename(documents[next(documents.length)]!, ".md")
  const leaf = () => leaves[next(leaves.length)]!
  const paragraphs = Array.from({ length: 4 + next(4) }, () => {
    const m = leaf()
    const refs = [
      `\`${symbolOf(m)}\``,
      `\`${m.path}\``,
      `[${WORDS[next(WORDS.length)]}](${link()})`,
      `[[${stem()}]]`,
      `\`@bench/pkg-${next(PACKAGES)}\``
    ]
    return `${sentence(next, 14)} See ${refs[next(refs.length)]} and ${refs[next(refs.length)]}. ${sentence(next, 18)} ${sentence(next, 11)}`
  })
  const m = leaf()
  return `---
title: ${WORDS[next(WORDS.length)]} ${WORDS[next(WORDS.length)]} ${index}
type: ${["guide", "decision", "runbook", "reference"][next(4)]}
owner: team-${next(12)}
status: current
updated: 2025-${String(1 + next(12)).padStart(2, "0")}-${String(1 + next(28)).padStart(2, "0")}
---
# ${sentence(next, 5).slice(0, -1)}

${paragraphs[0]}

## Background

${paragraphs.slice(1, 3).join("\n\n")}

\`\`\`ts
import { ${symbolOf(m)} } from "@bench/pkg-${m.pkg}/area-${m.area}/sub-${m.sub}/module-${m.index}"
const result = ${symbolOf(m)}({ limit: ${next(100)} })
\`\`\`

## Details

${paragraphs.slice(3).join("\n\n")}

- ${sentence(next, 8)}
- ${sentence(next, 9)} See [section ${section}](${link()}).
- ${sentence(next, 7)}

## Relations
- depends_on [[${stem()}]]
- relates_to [[${stem()}]]
`
}

const write = (root: string, path: string, text: string) => {
  const full = NodePath.join(root, path)
  NodeFs.mkdirSync(NodePath.dirname(full), { recursive: true })
  NodeFs.writeFileSync(full, text)
}

/** Writes the generated repository; returns the path of the module the warm run edits. */
const generate = (root: string): string => {
  const next = random(20261130)
  const leaves: Array<LeafModule> = []
  const perPackage = MODULES_PER_PACKAGE - 1 - AREAS
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    for (let i = 0; i < perPackage; i++) {
      const area = i % AREAS
      const sub = Math.floor(i / AREAS) % SUBDIRECTORIES
      const index = Math.floor(i / (AREAS * SUBDIRECTORIES))
      leaves.push({ pkg, area, sub, index, path: leafName(pkg, area, sub, index) })
    }
  }
  write(root, "package.json", JSON.stringify({ name: "bench-root", private: true, workspaces: ["packages/*"], devDependencies: { typescript: "^5.9.0", vitest: "^5.1.0" } }, null, 2))
  write(root, "tsconfig.base.json", JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", baseUrl: ".", paths: { "@shared/*": ["packages/pkg-0/src/*"] } } }, null, 2))
  write(root, "tsconfig.json", JSON.stringify({ extends: "./tsconfig.base.json", include: ["packages"] }, null, 2))
  write(root, ".gitignore", "node_modules/\ndist/\n*.log\n")
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    const dependencies: Record<string, string> = { effect: "^4.1.0", "lodash-es": "^4.17.21" }
    for (let k = 1; k <= 3; k++) dependencies[`@bench/pkg-${(pkg + k) % PACKAGES}`] = "workspace:*"
    write(root, `packages/pkg-${pkg}/package.json`, JSON.stringify({ name: `@bench/pkg-${pkg}`, version: "1.0.0", type: "module", exports: { ".": "./src/index.ts", "./*": "./src/*.ts" }, dependencies }, null, 2))
    write(root, `packages/pkg-${pkg}/src/index.ts`, Array.from({ length: AREAS }, (_, a) => `export * from "./area-${a}/index.js"`).join("\n") + "\n")
    for (let area = 0; area < AREAS; area++) {
      const members = leaves.filter((m) => m.pkg === pkg && m.area === area).slice(0, 12)
      write(root, `packages/pkg-${pkg}/src/area-${area}/index.ts`, members.map((m) => `export { ${symbolOf(m)} } from "./sub-${m.sub}/module-${m.index}.js"`).join("\n") + "\n")
    }
  }
  for (const m of leaves) write(root, m.path, moduleText(m, leaves, next))
  const documents = Array.from({ length: DOCUMENTS - PACKAGES }, (_, i) => `docs/section-${i % DOCUMENT_SECTIONS}/doc-${i}.md`)
  for (let pkg = 0; pkg < PACKAGES; pkg++) documents.push(`packages/pkg-${pkg}/README.md`)
  documents.forEach((path, i) => write(root, path, documentText(i, leaves, documents, next)))
  return leaves[Math.floor(leaves.length / 2)]!.path
}

/** Any module of an existing tree, for the one-file change. */
const pickModule = (root: string): string => {
  const found = NodeFs.readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes("node_modules") && !e.parentPath.includes(".git"))
    .map((e) => NodePath.relative(root, NodePath.join(e.parentPath, e.name)))
    .sort()
  return found[Math.floor(found.length / 2)]!
}

const scan = (root: string, previous?: Snapshot, cache?: ScanCache.ScanCache) =>
  Effect.runPromise(discover({ root, previous, cache }).pipe(Effect.provide(NodeFileSystem.layer)))

const timed = async <A>(run: () => Promise<A>): Promise<{ value: A; millis: number }> => {
  const start = performance.now()
  const value = await run()
  return { value, millis: performance.now() - start }
}

/** Three timed runs; the median time and the last value. `run` may time itself. */
const repeated = async <A>(
  scanOnce: () => Promise<A>,
  run: () => Promise<{ value: A; millis: number }> = () => timed(scanOnce)
): Promise<{ value: A; millis: number; all: Array<number> }> => {
  const results = [await run(), await run(), await run()]
  const sorted = results.map((r) => r.millis).sort((a, b) => a - b)
  return { value: results[2]!.value, millis: sorted[1]!, all: results.map((r) => r.millis) }
}

const runEntry = (snapshot: Snapshot): string => {
  const entry = snapshot.coverage.find((c) => c.scope === "reused-entities")
  return entry === undefined ? "" : `${entry.status}: ${entry.reason}`
}

const main = async () => {
  const generateFlag = process.argv.indexOf("--generate")
  if (generateFlag >= 0) {
    generate(NodePath.resolve(process.argv[generateFlag + 1]!))
    return
  }
  const rootFlag = process.argv.indexOf("--root")
  const existing = rootFlag >= 0 ? process.argv[rootFlag + 1] : undefined
  let root: string
  let edited: string
  let cleanup = () => {}
  if (existing !== undefined) {
    root = NodePath.resolve(existing)
    edited = pickModule(root)
    console.log(`repository: ${root}`)
  } else {
    const temp = NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "cairn-bench-"))
    root = NodePath.join(temp, "repo")
    const built = await timed(async () => generate(root))
    edited = built.value
    cleanup = () => NodeFs.rmSync(temp, { recursive: true, force: true })
    console.log(`generated ${PACKAGES * MODULES_PER_PACKAGE} modules and ${DOCUMENTS} documents in ${root} (${built.millis.toFixed(0)} ms)`)
  }
  const editedPath = NodePath.join(root, edited)
  const original = NodeFs.readFileSync(editedPath, "utf8")
  try {
    const cache = ScanCache.make()
    const cold = await timed(() => scan(root, undefined, cache))
    const files = cold.value.entities.filter((e) => e.kind === "module" || e.kind === "document" || e.kind === "package").length
    // Each warm figure is the median of three runs: the first run of a code path also pays for JIT.
    const warmRead = await repeated(() => scan(root, cold.value))
    const warmCached = await repeated(() => scan(root, cold.value, cache))
    let latest = warmCached.value
    let edits = 0
    const changeOne = async (withCache: boolean) => {
      NodeFs.writeFileSync(editedPath, `${original}\n// edited by the benchmark (${++edits})\n`)
      const result = await timed(() => scan(root, latest, withCache ? cache : undefined))
      if (withCache) latest = result.value
      return result
    }
    const changedRead = await repeated(() => changeOne(false).then((r) => r.value), () => changeOne(false))
    const changedCached = await repeated(() => changeOne(true).then((r) => r.value), () => changeOne(true))
    const usage = process.resourceUsage()
    const memory = process.memoryUsage()
    const row = (label: string, millis: number, all?: ReadonlyArray<number>) =>
      console.log(`${label.padEnd(44)} ${millis.toFixed(0).padStart(7)} ms${all ? `  (runs: ${all.map((m) => m.toFixed(0)).join(", ")})` : ""}`)
    console.log(`files analysed: ${files} (${cold.value.entities.length} entities, ${cold.value.relations.length} relations)`)
    row("cold scan", cold.millis)
    row("warm scan, no change (re-read, re-hash)", warmRead.millis, warmRead.all)
    row("warm scan, no change (hash cache)", warmCached.millis, warmCached.all)
    row("warm scan, one changed file (re-read)", changedRead.millis, changedRead.all)
    row("warm scan, one changed file (hash cache)", changedCached.millis, changedCached.all)
    console.log(`cold throughput: ${(files / (cold.millis / 1000)).toFixed(0)} files/s`)
    console.log(`peak memory: maxRSS ${(usage.maxRSS / 1024).toFixed(0)} MiB; heap used at end ${(memory.heapUsed / 1048576).toFixed(0)} MiB`)
    console.log(`changed file: ${edited}`)
    console.log(`run entry after the change: ${runEntry(changedCached.value)}`)
    console.log(`load average (1, 5, 15 min): ${NodeOs.loadavg().map((l) => l.toFixed(2)).join(", ")}; cpus: ${NodeOs.availableParallelism()}`)
  } finally {
    NodeFs.writeFileSync(editedPath, original)
    cleanup()
  }
}

await main()
