/**
 * `npm run build` (and `npm pack`, through `prepack`): `dist/` from nothing. tsc compiles the
 * library (src, layers, pipelines, eval) into ES modules with declarations and source maps, the
 * folders mirrored; then esbuild bundles the command line into `dist/cli/`: one entry for the
 * `cairn` command and one per worker thread, with the modules they share split into chunks beside
 * them. A command loads its own chunk when it runs (see pipelines/cli/Lazy.ts), so `cairn --help` reads a few files rather than the
 * hundreds of modules Effect and the parsers are published as. The worker entries sit beside the
 * chunks, where layers/node/WorkerEntry.ts looks for them.
 *
 * Packages with native or WebAssembly parts, the optional ones, and those that are one large
 * file anyway (js-tiktoken's ranks, undici) stay external: they are resolved from node_modules as
 * usual, where the package's dependencies put them, rather than shipped twice. The library itself (`dist/src`, `dist/layers`, …) is
 * compiled by tsc and not bundled, so a service that imports cairn shares its copy of Effect.
 * Beside the bundle goes cl100k's rank table, decoded once here (layers/tokens/Cl100kTable.ts), so
 * the command reads it as bytes rather than loading and decoding js-tiktoken's listing on every call.
 */
import * as esbuild from "esbuild"
import { spawnSync } from "node:child_process"
import { rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import * as Cl100kRanks from "../layers/tokens/Cl100kRanks.ts"
import * as Cl100kTable from "../layers/tokens/Cl100kTable.ts"

const repository = join(import.meta.dirname, "..")
const outdir = join(repository, "dist", "cli")

// A file left from a module since removed would ship with the next package.
rmSync(join(repository, "dist"), { recursive: true, force: true })
const tsc = spawnSync(process.execPath, [join(repository, "node_modules", "typescript", "bin", "tsc"), "-p", join(repository, "tsconfig.build.json")], {
  stdio: "inherit"
})
if (tsc.status !== 0) {
  process.stderr.write(`build: tsc failed (exit ${tsc.status ?? tsc.signal})\n`)
  process.exit(1)
}

const result = await esbuild.build({
  absWorkingDir: repository,
  entryPoints: {
    cairn: "bin/cairn.ts",
    analyzerWorker: "layers/node/analyzerWorker.ts",
    chunkerWorker: "layers/node/chunkerWorker.ts",
    trainingWorker: "layers/node/trainingWorker.ts"
  },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22.19",
  chunkNames: "[name]-[hash]",
  // Maps name each line's source, without the sources' text: the bundle is what ships, and
  // Effect's sources would double its size.
  sourcemap: "linked",
  sourcesContent: false,
  // Names are not kept: every cairn error reports its `_tag`, and the maps name each frame. Keeping
  // them wraps every function in a naming call as the chunks load, about 20 ms of each command.
  minify: true,
  legalComments: "linked",
  metafile: true,
  // Modules that also run as scripts (eval/main.ts) check import.meta.main; bundled, only the
  // entry would be the main module, and it is no such script.
  define: { "import.meta.main": "false" },
  logLevel: "warning",
  external: ["oxc-parser", "@oxc-parser/*", "sqlite-vec", "sqlite-vec-*", "js-tiktoken", "undici", "tiktoken", "minisearch", "@orama/orama", "web-tree-sitter"],
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __cairnRequire } from \"node:module\"; const require = __cairnRequire(import.meta.url);" }
})
const listing = createRequire(import.meta.url)(Cl100kRanks.LISTING) as Cl100kRanks.CompressedRanks
const decoded = Cl100kRanks.decodeArrays(listing)
writeFileSync(join(outdir, Cl100kTable.FILE_NAME), Cl100kTable.write(decoded, Cl100kRanks.slotsOf(decoded), Cl100kRanks.listingBytes()))
// What each bundled module imports, for a look at what a command loads (CAIRN_BUNDLE_META=file).
if (process.env.CAIRN_BUNDLE_META !== undefined) writeFileSync(process.env.CAIRN_BUNDLE_META, JSON.stringify(result.metafile))
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
console.log(`build: the library in dist/, the command line bundled into dist/cli/: ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith(".js")).length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB`)
