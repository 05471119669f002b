import { assert, describe, it } from "@effect/vitest"
import { cpSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openCairn } from "../../pipelines/openCairn.ts"

const FIXTURE = join(import.meta.dirname, "../fixtures/polyglot")

describe("openCairn over a polyglot repository", () => {
  it("answers a question about a Python function with its declaration, and a Go or Rust one with theirs", async () => {
    const root = mkdtempSync(join(tmpdir(), "cairn-polyglot-"))
    try {
      cpSync(FIXTURE, root, { recursive: true })
      const cairn = await openCairn({ root })
      const python = await cairn.recall("what does reconcile_invoice_totals do?")
      const invoice = python.claims.find((claim) => claim.note === "py/billing/invoice.py")
      assert.isDefined(invoice)
      assert.include(invoice!.text, "def reconcile_invoice_totals(lines, region):")
      const go = await cairn.recall("how is the total of a Cart computed?")
      assert.isTrue(go.claims.some((claim) => claim.note === "go/cart/cart.go" && claim.text.includes("func (c *Cart) Total() int")))
      const rust = await cairn.recall("how is text split into tokens?")
      assert.isTrue(rust.claims.some((claim) => claim.note === "rust/src/parser.rs" && claim.text.includes("pub fn tokenize")))
      // Configuration is indexed by lines under its path.
      const cargo = await cairn.recall("which Rust edition does the lexer crate use?")
      assert.isTrue(cargo.claims.some((claim) => claim.note === "rust/Cargo.toml"))
      await cairn.close()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
