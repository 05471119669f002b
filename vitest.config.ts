import { readFileSync } from "node:fs"
import { join } from "node:path"
import { defineConfig } from "vitest/config"

// Tests import cairn by its package name, as a dependent does. The package's exports name the build
// (dist/…/x.js); here each resolves to the source the build compiles it from (…/x.ts).
const exportsMap = (JSON.parse(readFileSync(join(import.meta.dirname, "package.json"), "utf8")) as {
  exports: Record<string, string | { import: string }>
}).exports
const sourceOf = (target: string) => join(import.meta.dirname, target.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts"))
const alias = Object.entries(exportsMap)
  .filter(([subpath]) => !subpath.includes("*") && subpath !== "./package.json")
  .map(([subpath, target]) => ({
    find: new RegExp(`^${subpath === "." ? "cairn" : `cairn/${subpath.slice(2)}`}$`),
    replacement: sourceOf(typeof target === "string" ? target : target.import)
  }))

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "layers/**/*.test.ts", "pipelines/**/*.test.ts", "eval/**/*.test.ts", "test/**/*.test.ts"]
        }
      },
      {
        extends: true,
        test: {
          name: "property",
          include: ["property-tests/**/*.test.ts"],
          testTimeout: 120_000
        }
      }
    ]
  }
})
