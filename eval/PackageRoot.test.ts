import { afterAll, assert, describe, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { findPackageRoot, isCheckout } from "./PackageRoot.ts"

const base = mkdtempSync(join(tmpdir(), "cairn-root-"))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const folder = (...parts: Array<string>) => {
  const path = join(base, ...parts)
  mkdirSync(path, { recursive: true })
  return path
}
const manifest = (dir: string, text: string) => writeFileSync(join(dir, "package.json"), text)

// A checkout with its sources and a build, and an app with cairn installed under node_modules.
const checkout = folder("checkout")
manifest(checkout, JSON.stringify({ name: "cairn" }))
folder("checkout", "src")
folder("checkout", "eval")
manifest(folder("checkout", "dist"), JSON.stringify({ type: "module" }))
folder("checkout", "dist", "eval")
const app = folder("app")
manifest(app, JSON.stringify({ name: "app" }))
const installed = folder("app", "node_modules", "cairn")
manifest(installed, JSON.stringify({ name: "cairn" }))
folder("app", "node_modules", "cairn", "dist", "eval")
folder("app", "node_modules", "cairn", "dist", "src")

describe("findPackageRoot", () => {
  it("findPackageRoot - the source and the build in a checkout find the same root", () => {
    assert.strictEqual(findPackageRoot(join(checkout, "eval")), checkout)
    assert.strictEqual(findPackageRoot(join(checkout, "dist", "eval")), checkout)
  })

  it("findPackageRoot - an installed package is its own root, not the app that installed it", () => {
    assert.strictEqual(findPackageRoot(join(installed, "dist", "eval")), installed)
  })

  it("findPackageRoot - a package.json that does not parse is passed over", () => {
    const nested = folder("checkout", "dist", "broken")
    manifest(nested, "{ not json")
    assert.strictEqual(findPackageRoot(nested), checkout)
  })

  it("findPackageRoot - no package named cairn above is an error", () => {
    assert.throws(() => findPackageRoot(app), /no package.json named cairn/u)
  })

  it("findPackageRoot - this module's own root is the repository", () => {
    assert.strictEqual(findPackageRoot(import.meta.dirname), resolve(import.meta.dirname, ".."))
  })
})

describe("isCheckout", () => {
  it("isCheckout - true with the sources, false for an installed package even if it had them", () => {
    assert.isTrue(isCheckout(checkout))
    assert.isFalse(isCheckout(installed))
    folder("app", "node_modules", "cairn", "src")
    assert.isFalse(isCheckout(installed))
  })

  it("isCheckout - a root without src/ has no sources to index", () => {
    assert.isFalse(isCheckout(folder("no-sources")))
  })
})
