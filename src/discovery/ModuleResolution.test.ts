import { assert, describe, it } from "@effect/vitest"
import { makeResolver, packageName } from "./ModuleResolution.ts"

const resolve = makeResolver({
  modules: new Set([
    "src/a.ts",
    "src/b.tsx",
    "src/legacy.js",
    "src/both.ts",
    "src/both.js",
    "src/lib/index.ts",
    "src/app/util.ts",
    "packages/core/src/index.ts",
    "packages/core/src/feature.ts",
    "packages/plain/lib/helper.ts",
    "packages/plain/index.ts"
  ]),
  packages: [
    {
      id: "package:@demo/core",
      name: "@demo/core",
      directory: "packages/core",
      entryPoints: [{ subpath: ".", target: "packages/core/src/index.ts" }, { subpath: "./*", target: "packages/core/src/*.ts" }]
    },
    { id: "package:plain", name: "plain", directory: "packages/plain", entryPoints: [] },
    { id: "package:built", name: "built", directory: "packages/built", entryPoints: [{ subpath: ".", target: "packages/built/dist/index.js" }] }
  ],
  compilerOptions: [{ path: "tsconfig.json", contentHash: "", baseUrl: "", paths: [{ pattern: "@app/*", targets: ["src/app/*"] }, { pattern: "@missing/*", targets: ["nowhere/*"] }] }]
})

describe("ModuleResolution", () => {
  it("resolve - maps a written .js extension to the TypeScript source, TypeScript first", () => {
    assert.strictEqual(resolve("src/x.ts", "./a.js"), "module:src/a.ts")
    assert.strictEqual(resolve("src/x.ts", "./b.js"), "module:src/b.tsx")
    assert.strictEqual(resolve("src/x.ts", "./legacy.js"), "module:src/legacy.js")
    assert.strictEqual(resolve("src/x.ts", "./both.js"), "module:src/both.ts")
  })

  it("resolve - probes extensions and index files", () => {
    assert.strictEqual(resolve("src/x.ts", "./a"), "module:src/a.ts")
    assert.strictEqual(resolve("src/x.ts", "./lib"), "module:src/lib/index.ts")
    assert.strictEqual(resolve("src/app/y.ts", "../lib/index.js"), "module:src/lib/index.ts")
  })

  it("resolve - tsconfig paths and baseUrl", () => {
    assert.strictEqual(resolve("src/x.ts", "@app/util"), "module:src/app/util.ts")
    assert.strictEqual(resolve("src/x.ts", "src/a"), "module:src/a.ts")
    assert.strictEqual(resolve("src/x.ts", "@missing/thing"), "unresolved:@missing/thing")
  })

  it("resolve - workspace packages by their exports, else the package itself", () => {
    assert.strictEqual(resolve("src/x.ts", "@demo/core"), "module:packages/core/src/index.ts")
    assert.strictEqual(resolve("src/x.ts", "@demo/core/feature"), "module:packages/core/src/feature.ts")
    assert.strictEqual(resolve("src/x.ts", "plain"), "module:packages/plain/index.ts")
    assert.strictEqual(resolve("src/x.ts", "plain/lib/helper"), "module:packages/plain/lib/helper.ts")
    assert.strictEqual(resolve("src/x.ts", "built"), "package:built")
  })

  it("resolve - bare names are external, missing relative files unresolved, never guessed", () => {
    assert.strictEqual(resolve("src/x.ts", "lodash/fp"), "external:lodash")
    assert.strictEqual(resolve("src/x.ts", "@scope/pkg/deep"), "external:@scope/pkg")
    assert.strictEqual(resolve("src/x.ts", "node:fs"), "external:node:fs")
    assert.strictEqual(resolve("src/x.ts", "./gone"), "unresolved:src/gone")
    assert.strictEqual(resolve("src/x.ts", "../../outside"), "unresolved:../../outside")
    assert.strictEqual(resolve("src/x.ts", "./styles.css"), "unresolved:src/styles.css")
  })

  it("packageName - keeps the scope", () => {
    assert.strictEqual(packageName("@a/b/c"), "@a/b")
    assert.strictEqual(packageName("a/b"), "a")
  })
})
