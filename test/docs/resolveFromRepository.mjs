// A module hook for running docs/ examples as written from outside the repository: `cairn`
// resolves to the sources its build compiles (pipelines/index.ts, src/ports/index.ts, …), and any
// other package to the repository's own node_modules, as if the example sat in it.
import { registerHooks } from "node:module"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const repository = join(import.meta.dirname, "..", "..")
const { exports } = JSON.parse(readFileSync(join(repository, "package.json"), "utf8"))
const parentInRepository = pathToFileURL(join(repository, "package.json")).href

registerHooks({
  resolve(specifier, context, next) {
    const subpath = specifier === "cairn" ? "." : specifier.startsWith("cairn/") ? `./${specifier.slice("cairn/".length)}` : undefined
    const target = subpath === undefined ? undefined : exports[subpath]
    if (target !== undefined) {
      const file = (typeof target === "string" ? target : target.import).replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")
      return { url: pathToFileURL(join(repository, file)).href, shortCircuit: true }
    }
    if (/^[@a-z]/.test(specifier) && !specifier.startsWith("node:")) return next(specifier, { ...context, parentURL: parentInRepository })
    return next(specifier, context)
  }
})
