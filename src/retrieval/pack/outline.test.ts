import { assert, describe, it } from "@effect/vitest"
import { outlineCode } from "./outline.ts"

describe("outlineCode", () => {
  it("keeps a function's doc comment and signature, elides its body with the lines it spans", () => {
    const text = [
      "src/pack.ts",
      "/** Packs claims inside the budget. */",
      "export const packClaims = (texts: Array<string>, budget: number) => {",
      "  let used = 0",
      "  const open = \"{\" // a brace in a string opens nothing",
      "  return texts.filter((text) => {",
      "    used += text.length",
      "    return used <= budget",
      "  })",
      "}"
    ].join("\n")
    assert.strictEqual(outlineCode(text, 10, "src/pack.ts"), [
      "src/pack.ts",
      "/** Packs claims inside the budget. */",
      "export const packClaims = (texts: Array<string>, budget: number) => {",
      "  … lines 12-17 elided",
      "}"
    ].join("\n"))
  })

  it("keeps a class's member signatures and comments, eliding each method body", () => {
    const text = [
      "src/queue.ts",
      "export class Queue {",
      "  // Oldest first.",
      "  private items: Array<string> = []",
      "  push(item: string): void {",
      "    this.items.push(item)",
      "    this.items.sort()",
      "  }",
      "}"
    ].join("\n")
    assert.strictEqual(outlineCode(text, 1, "src/queue.ts"), [
      "src/queue.ts",
      "export class Queue {",
      "  // Oldest first.",
      "  private items: Array<string> = []",
      "  push(item: string): void {",
      "    … lines 5-6 elided",
      "  }",
      "}"
    ].join("\n"))
  })

  it("reads Python by indentation, and leaves a chunk whole when nothing would be saved", () => {
    const text = ["app.py", "def total(items):", "    \"\"\"Sum of prices.\"\"\"", "    subtotal = sum(i.price for i in items)", "    return subtotal * 1.2"].join("\n")
    assert.strictEqual(outlineCode(text, 4, "app.py"), ["app.py", "def total(items):", "    \"\"\"Sum of prices.\"\"\"", "    … lines 6-7 elided"].join("\n"))
    const short = ["src/x.ts", "export function x() {", "  return 1", "}"].join("\n")
    assert.strictEqual(outlineCode(short, 1, "src/x.ts"), short)
    assert.strictEqual(outlineCode("src/y.ts", 1, "src/y.ts"), "src/y.ts")
  })
})
