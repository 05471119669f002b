/**
 * cairn as a user installs it: `npm pack` (which builds, through prepack), then the tarball
 * installed with its production dependencies only into a project of its own under `scratch`,
 * outside the repository. Shared by the package check and the start-up benchmark.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const repository = join(import.meta.dirname, "..")
export const npm = process.platform === "win32" ? "npm.cmd" : "npm"
/** Offline where npm's cache already holds a package: CI has just run `npm ci`. */
export const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]

export interface Tarball {
  readonly filename: string
  readonly size: number
  readonly unpackedSize: number
  readonly entryCount: number
  readonly files: ReadonlyArray<{ readonly path: string }>
}

export interface Installed {
  readonly tarball: Tarball
  /** The project cairn was installed into. */
  readonly app: string
  /** The installed `cairn` command's file, to run with a `node` of one's choosing. */
  readonly bin: string
}

const npmRun = (args: ReadonlyArray<string>, cwd: string): string => {
  const done = spawnSync(npm, args, { cwd, encoding: "utf8", timeout: 600_000, maxBuffer: 64 * 1024 * 1024 })
  if (done.error !== undefined || done.status !== 0) {
    throw new Error(`npm ${args.join(" ")} failed (${done.error?.message ?? `exit ${done.status}`})\n${done.stdout.slice(-3000)}\n${done.stderr.slice(-3000)}`)
  }
  return done.stdout
}

export const packAndInstall = (scratch: string): Installed => {
  const packed = npmRun(["pack", "--json", "--pack-destination", scratch], repository)
  const [tarball] = JSON.parse(packed.slice(packed.indexOf("["))) as Array<Tarball>
  if (tarball === undefined) throw new Error(`npm pack printed no tarball:\n${packed}`)
  const app = join(scratch, "app")
  mkdirSync(app, { recursive: true })
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "cairn-consumer", private: true, type: "module" }, null, 2))
  npmRun(["install", join(scratch, tarball.filename), "--omit=dev", ...npmFlags], app)
  return { tarball, app, bin: join(app, "node_modules", "cairn", "bin", "cairn.js") }
}
