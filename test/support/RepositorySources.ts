/** This repository's own TypeScript and JavaScript files: real code for tests that compare two readings of it. */
import { readdirSync } from "node:fs"
import { join } from "node:path"

export const repository = join(import.meta.dirname, "../..")

/** Repository-relative paths, sorted. */
export const repositorySources = (): Array<string> =>
  ["src", "layers", "pipelines", "bench", "eval", "test"].flatMap((top) =>
    readdirSync(join(repository, top), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.includes("fixtures"))
      .map((file) => join(top, file))
  ).sort()
