import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import cl100k from "js-tiktoken/ranks/cl100k_base"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { bounded } from "../../src/text/TokenCount.ts"
import * as Cl100kRanks from "./Cl100kRanks.ts"
import * as Cl100kTable from "./Cl100kTable.ts"
import { pieceTokensIn } from "./TokenCounterBpe.ts"

const arrays = Cl100kRanks.decodeArrays(cl100k)
const listingBytes = Cl100kRanks.listingBytes()
const written = Cl100kTable.write(arrays, Cl100kRanks.slotsOf(arrays), listingBytes)

/** A fresh guarded counter over `table`: its own memo, so no count is carried over from the other table. */
const counterOver = (table: Cl100kRanks.RankTable) => bounded((piece) => pieceTokensIn(table, piece))

const withTableFile = <A>(bytes: Uint8Array, f: (url: URL) => A): A => {
  const scratch = mkdtempSync(join(tmpdir(), "cairn-cl100k-"))
  try {
    const path = join(scratch, Cl100kTable.FILE_NAME)
    writeFileSync(path, bytes)
    return f(pathToFileURL(path))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

describe("the prebuilt cl100k table", () => {
  it("read - gives back the arrays it was written from", () => {
    const read = Cl100kTable.read(written, listingBytes)
    assert.isDefined(read)
    assert.deepStrictEqual(read!.tokenRank, arrays.tokenRank)
    assert.deepStrictEqual(read!.tokenStart, arrays.tokenStart)
    assert.deepStrictEqual(read!.spelling, arrays.spelling)
    assert.deepStrictEqual(read!.slots, Cl100kRanks.slotsOf(arrays))
    // A buffer that does not start on a 4-byte boundary is read too.
    const shifted = new Uint8Array(written.length + 1).subarray(1)
    shifted.set(written)
    assert.deepStrictEqual(Cl100kTable.read(shifted, listingBytes)?.tokenRank, arrays.tokenRank)
  })

  it("read - refuses a table that is damaged, cut short, of another format or from another listing", () => {
    const flipped = (at: number) => {
      const copy = written.slice()
      copy[at] = copy[at]! ^ 0x10
      return copy
    }
    assert.isUndefined(Cl100kTable.read(flipped(written.length - 1), listingBytes), "a spelling byte")
    assert.isUndefined(Cl100kTable.read(flipped(40), listingBytes), "a rank")
    assert.isUndefined(Cl100kTable.read(flipped(32 + arrays.tokenRank.length * 4 + 8), listingBytes), "a slot")
    assert.isUndefined(Cl100kTable.read(flipped(24), listingBytes), "the slot count")
    assert.isUndefined(Cl100kTable.read(flipped(0), listingBytes), "the magic")
    assert.isUndefined(Cl100kTable.read(flipped(4), listingBytes), "the version")
    assert.isUndefined(Cl100kTable.read(written.subarray(0, written.length - 1), listingBytes), "cut short")
    assert.isUndefined(Cl100kTable.read(written.subarray(0, 16), listingBytes), "no whole header")
    assert.isUndefined(Cl100kTable.read(written, listingBytes + 1), "built from a listing of another size")
  })

  it("load - the table and the listing count alike, on this repository's files and generated text", () => {
    withTableFile(written, (url) => {
      assert.isDefined(Cl100kRanks.readTable(url), "the sound table is taken")
      const fromTable = counterOver(Cl100kRanks.load(url))
      const fromListing = counterOver(Cl100kRanks.load(new URL("absent.table", url)))
      const root = join(import.meta.dirname, "../..")
      const files = ["src", "layers", "docs"].flatMap((folder) =>
        readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile() && /\.(ts|md)$/.test(entry.name))
          .map((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8"))
      )
      let tokens = 0
      for (const text of files) {
        const count = fromTable(text)
        assert.strictEqual(count, fromListing(text))
        tokens += count
      }
      assert.isAbove(tokens, 200_000)
      const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 }), fc.constant("<|endoftext|> and <|fim_prefix|>"))
      fc.assert(fc.property(text, (sample) => fromTable(sample) === fromListing(sample)), { numRuns: 500, seed: 20261201 })
      assert.isAbove(fromTable("<|endoftext|>"), 1, "special-token text is plain text")
    })
  }, 60_000)

  it("load - a damaged table is not trusted: the listing's ranks are used instead", () => {
    const damaged = written.slice()
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 0xff
    withTableFile(damaged, (url) => {
      assert.isUndefined(Cl100kRanks.readTable(url))
      const count = counterOver(Cl100kRanks.load(url))
      assert.strictEqual(count("hello world"), 2)
    })
  })
})
