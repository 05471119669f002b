import { defineConfig } from "vitest/config"

export default defineConfig({
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
