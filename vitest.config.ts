import { readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
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
    // Vitest runs one file at a time on two cores (its default is one worker fewer than the cores);
    // the slow files mostly wait on the child processes they start, so a second worker pays.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker keeps the modules it has loaded from one file to the next instead of importing effect
    // and the package afresh for each (28% of the test time). No file changes process-wide state;
    // the suite passes with its files and tests in shuffled order.
    isolate: false,
    // Named here so no test rests on vitest's 5 s default: the unit tests left to it take well under
    // a second idle; those that can take longer say their own.
    testTimeout: 30_000,
    hookTimeout: 30_000,
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
