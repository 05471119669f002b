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

  it("resolve - package.json imports by the nearest package.json above the module, a .js target to its source", () => {
    const resolveImports = makeResolver({
      modules: new Set(["src/lib/foo.ts", "src/config.ts", "src/a.ts", "tools/x.ts", "packages/app/src/util.ts", "packages/app/main.ts", "packages/bare/main.ts"]),
      packages: [
        {
          id: "package:root",
          name: "root",
          directory: "",
          entryPoints: [],
          imports: [
            { pattern: "#lib/*", targets: ["src/lib/*.js"] },
            { pattern: "#config", targets: ["dist/config.js", "src/config.ts"] },
            { pattern: "#missing/*", targets: ["nowhere/*.ts"] }
          ]
        },
        { id: "package:app", name: "app", directory: "packages/app", entryPoints: [], imports: [{ pattern: "#util", targets: ["packages/app/src/util.ts"] }] },
        { id: "package:bare", name: "bare", directory: "packages/bare", entryPoints: [] }
      ],
      compilerOptions: []
    })
    assert.strictEqual(resolveImports("src/a.ts", "#lib/foo"), "module:src/lib/foo.ts")
    assert.strictEqual(resolveImports("tools/x.ts", "#config"), "module:src/config.ts")
    assert.strictEqual(resolveImports("src/a.ts", "#missing/thing"), "unresolved:#missing/thing")
    assert.strictEqual(resolveImports("packages/app/main.ts", "#util"), "module:packages/app/src/util.ts")
    // Node's rule: the nearest package.json decides, even one that declares no imports.
    assert.strictEqual(resolveImports("packages/app/main.ts", "#lib/foo"), "external:#lib")
    assert.strictEqual(resolveImports("packages/bare/main.ts", "#lib/foo"), "external:#lib")
    assert.strictEqual(resolveImports("src/a.ts", "#other"), "external:#other")
  })

  it("packageName - keeps the scope", () => {
    assert.strictEqual(packageName("@a/b/c"), "@a/b")
    assert.strictEqual(packageName("a/b"), "a")
  })
})
