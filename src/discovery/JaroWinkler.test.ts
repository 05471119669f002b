import { assert, describe, it } from "@effect/vitest"
import { jaro, jaroWinkler } from "./JaroWinkler.ts"

const close = (actual: number, expected: number) => assert.isBelow(Math.abs(actual - expected), 0.001)

describe("JaroWinkler", () => {
  it("jaro - matches the published examples", () => {
    close(jaro("MARTHA", "MARHTA"), 0.944)
    close(jaro("DIXON", "DICKSONX"), 0.767)
    close(jaro("JELLYFISH", "SMELLYFISH"), 0.896)
  })

  it("jaroWinkler - raises a shared prefix of up to four characters", () => {
    close(jaroWinkler("MARTHA", "MARHTA"), 0.961)
    close(jaroWinkler("DWAYNE", "DUANE"), 0.84)
    close(jaroWinkler("DIXON", "DICKSONX"), 0.813)
  })

  it("jaroWinkler - is 1 for equal strings and 0 with nothing in common", () => {
    assert.strictEqual(jaroWinkler("src/a.ts", "src/a.ts"), 1)
    assert.strictEqual(jaroWinkler("abc", "xyz"), 0)
    assert.strictEqual(jaroWinkler("", "x"), 0)
  })
})
