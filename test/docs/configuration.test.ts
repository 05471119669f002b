import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as RetrievalConfig from "../../src/RetrievalConfig.ts"

describe("docs/configuration.md", () => {
  it("documents every tunable", () => {
    const page = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")
    for (const key of Object.keys(RetrievalConfig.defaults)) assert.include(page, `| \`${key}\` |`, key)
  })
})
