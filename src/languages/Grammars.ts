/**
 * The tree-sitter runtime and its grammars, loaded once per process and only for the languages a
 * run meets: the runtime on the first grammar asked for, each grammar on its first file. Loading is
 * asynchronous; parsing is not, so an analyzer or chunker awaits `ready` for the languages it is
 * about to read and then parses synchronously.
 *
 * The grammars are prebuilt WebAssembly from npm: `@vscode/tree-sitter-wasm` (built with
 * tree-sitter 0.25, as the runtime is) where it has the language, `tree-sitter-wasms` (tree-sitter
 * 0.20 builds, ABI 13 and 14) for C, Kotlin and Swift. Older builds of Bash and C++ made V8's
 * optimising compiler take about 1 GB compiling their lexers; these do not (docs/languages.md has
 * the measurements), except Swift's, which Node 24's runs out of memory on: see `WITHOUT_TIER_UP`.
 */
import { setFlagsFromString } from "node:v8"
import type { Language, Parser, Tree } from "web-tree-sitter"

/**
 * Grammars V8 must never optimise. Every Swift build on npm makes Node 24's optimising WebAssembly
 * compiler abort the process with a fatal out-of-memory ("Zone") once its lexer is hot, whatever
 * the heap; run on the baseline compiler (Liftoff) alone it parses in under 100 MiB. The `cairn`
 * command starts Node with `--liftoff-only` and never tiers up; a process started without it stops
 * tiering up WebAssembly from the first of these grammars on, for good: the flags are V8's, for the
 * whole process, and are read when a function turns hot, so they cannot be put back once the
 * grammar is loaded. Code already optimised stays so.
 */
export const WITHOUT_TIER_UP: ReadonlySet<string> = new Set(["tree-sitter-wasms/out/tree-sitter-swift.wasm"])

let tierUpOff = false
const stopTierUp = (): void => {
  if (tierUpOff) return
  // Both: with dynamic tiering on, `--no-wasm-tier-up` alone still lets a hot function be optimised.
  setFlagsFromString("--no-wasm-tier-up")
  setFlagsFromString("--no-wasm-dynamic-tiering")
  tierUpOff = true
}

// The runtime's module too loads with the first grammar: a scan of TypeScript and Markdown alone never reads it.
let runtime: Promise<typeof import("web-tree-sitter")> | undefined
const loading = new Map<string, Promise<Language>>()
const parsers = new Map<string, Parser>()

/** The file path of a packaged module, from its URL (`file:` only: the grammars ship in the package). */
const pathOf = (url: string): string => {
  const path = decodeURIComponent(new URL(url).pathname)
  // `file:///C:/x` is `/C:/x` as a URL path, `C:/x` as a file.
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path
}

const load = (grammar: string): Promise<Language> => {
  let held = loading.get(grammar)
  if (held === undefined) {
    runtime ??= import("web-tree-sitter").then(async (module) => {
      await module.Parser.init()
      return module
    })
    held = runtime.then((module) => {
      if (WITHOUT_TIER_UP.has(grammar)) stopTierUp()
      return module.Language.load(pathOf(import.meta.resolve(grammar)))
    })
    // A grammar that failed to load is tried again by the next run that asks, not cached as failed.
    held.catch(() => loading.delete(grammar))
    loading.set(grammar, held)
  }
  return held
}

/** Resolves once every grammar named is loaded and `parse` can read their files; rejects when one cannot be. */
export const ready = async (grammars: Iterable<string>): Promise<void> => {
  const wanted = [...new Set(grammars)].filter((grammar) => !parsers.has(grammar))
  const languages = await Promise.all(wanted.map(load))
  if (wanted.length === 0) return
  const { Parser } = await runtime!
  wanted.forEach((grammar, i) => {
    if (parsers.has(grammar)) return
    const parser = new Parser()
    parser.setLanguage(languages[i]!)
    parsers.set(grammar, parser)
  })
}

/** Whether `ready` has loaded `grammar`. */
export const isReady = (grammar: string): boolean => parsers.has(grammar)

/**
 * Progress reports a parse may take before it is given up. The runtime reports every few thousand
 * steps, about 300 times in the 60 ms a 3 MB Python file takes, so this allows some seconds of work:
 * a count, not a clock, so the same file is given up on every machine alike.
 */
export const MAX_PARSE_STEPS = 20_000

/** Why a file could not be read as a tree. */
export type ParseFailure = "not-loaded" | "gave-up"

/**
 * Calls `use` with the file's syntax tree and frees the tree after (it lives in WebAssembly memory).
 * A grammar not loaded by `ready` is a failure, as is a parse past `MAX_PARSE_STEPS`.
 */
export const withTree = <A>(grammar: string, source: string, use: (tree: Tree) => A, maxSteps = MAX_PARSE_STEPS): A | ParseFailure => {
  const parser = parsers.get(grammar)
  if (parser === undefined) return "not-loaded"
  let steps = 0
  // The runtime cancels a parse when the callback returns true, though its type says void.
  const progressCallback = (() => ++steps > maxSteps) as unknown as () => void
  const tree = parser.parse(source, null, { progressCallback })
  parser.reset()
  if (tree === null) return "gave-up"
  try {
    return use(tree)
  } finally {
    tree.delete()
  }
}
