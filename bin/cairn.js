#!/usr/bin/env -S node --liftoff-only
// --liftoff-only: V8's optimising compiler took 200 to 480 MB compiling the tree-sitter grammars'
// lexers, and parsed no faster than the baseline compiler (docs/languages.md); npm's shims pass it on.
// The `cairn` command. Plain JavaScript that any Node parses, so an unsupported Node hears one line
// naming the version it needs rather than a stack trace; everything else is imported after the check.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`cairn: needs Node.js 22.19 or later; this is Node.js ${process.versions.node}\n`)
  process.exit(1)
}

const NodeModule = await import("node:module")
const NodeFs = await import("node:fs")

// Node keeps the code it compiles in a cache on disk (under the system's temporary directory, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a later call starts faster.
NodeModule.enableCompileCache?.()

// cairn's own warnings (a worker that could not help) read as cairn's lines; others pass through.
const emitWarning = process.emitWarning.bind(process)
process.emitWarning = (warning, ...rest) => {
  const options = rest[0]
  const type = typeof options === "string" ? options : options?.type
  const text = typeof warning === "string" ? warning : warning.message
  if (type === "CairnWarning") {
    process.stderr.write(`${text.startsWith("cairn:") ? text : `cairn: ${text}`}\n`)
    return
  }
  emitWarning(warning, ...rest)
}

// A checkout runs its TypeScript sources (Node 24 strips the types); the package runs its build.
const sources = new URL("./cairn.ts", import.meta.url)
const build = new URL("../dist/cli/cairn.js", import.meta.url)
if (NodeFs.existsSync(sources)) await import(sources.href)
else if (NodeFs.existsSync(build)) await import(build.href)
else {
  process.stderr.write("cairn: the build is missing (dist/cli/cairn.js); reinstall cairn, or run `npm run build` in a checkout\n")
  process.exit(1)
}
