import { assert, describe, it } from "@effect/vitest"
import { pack } from "./PackedUnits.ts"
import * as UnitStash from "./UnitStash.ts"

const units = (n: number) => pack(Array.from({ length: n }, (_, i) => ({ start: i * 2, end: i * 2 + 1, symbols: [`s${i}`], declaration: true })), n * 2)

describe("UnitStash", () => {
  it("gives a file's units once, and only for the bytes they were parsed from", () => {
    const stash = UnitStash.make()
    stash.put("a.py", "hash-a", units(3))
    stash.put("b.py", "hash-b", units(2))
    assert.isTrue(stash.holds("a.py"))
    assert.deepStrictEqual(stash.take("a.py", "hash-a"), units(3))
    assert.isFalse(stash.holds("a.py"))
    assert.isUndefined(stash.take("a.py", "hash-a"))
    // Other bytes now: the entry is not theirs, and is let go all the same.
    assert.isUndefined(stash.take("b.py", "hash-moved"))
    assert.isFalse(stash.holds("b.py"))
    assert.strictEqual(stash.heldBytes(), 0)
  })

  it("keeps no more than its bound, and a file put again replaces what it held", () => {
    const one = units(10)
    const size = one.layout.byteLength + one.symbols.byteLength
    const stash = UnitStash.make(size * 2)
    stash.put("a.py", "1", one)
    stash.put("b.py", "1", one)
    stash.put("c.py", "1", one)
    assert.isFalse(stash.holds("c.py"))
    assert.strictEqual(stash.heldBytes(), size * 2)
    stash.put("a.py", "2", one)
    assert.strictEqual(stash.heldBytes(), size * 2)
    assert.isUndefined(stash.take("a.py", "1"))
    stash.put("c.py", "1", one)
    assert.isTrue(stash.holds("c.py"))
  })
})
