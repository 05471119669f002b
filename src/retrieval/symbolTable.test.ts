import { assert, describe, it } from "@effect/vitest"
import { makeChunk } from "../../layers/contracts/ChunkFixtures.ts"
import { compile } from "../ports/RetrievalFilter.ts"
import { analysedStopwords } from "../text/Stopwords.ts"
import { STOPWORDS } from "../text/Stopwords.ts"
import { buildSymbolTable, declarationsOf, identifierParts, splitIdentifier } from "./symbolTable.ts"

const code = (id: string, symbols: Array<string>, body: string, lineStart = 1) =>
  makeChunk({ id, text: `${id.split("#")[0]} > ${symbols.join(", ")}\n${body}`, noteType: "code", symbols, lineStart, lineEnd: lineStart + body.split("\n").length - 1 })

const stopwords = analysedStopwords(STOPWORDS)
const everything = compile({})

describe("identifier parts", () => {
  it("splits camel, Pascal, snake, acronyms and digits, and stems each part as the lexical leg does", () => {
    assert.strictEqual(splitIdentifier("parseHTTPRequest2"), "parse HTTP Request 2")
    assert.strictEqual(splitIdentifier("DEFAULT_BUDGET_TOKENS"), "DEFAULT BUDGET TOKENS")
    assert.deepStrictEqual(identifierParts("BudgetTokens"), ["budget", "token"])
    assert.deepStrictEqual(identifierParts("max_retry_count"), ["max", "retri", "count"])
  })
})

describe("declarations of a chunk", () => {
  it("reads kind and exported-ness from the declaring line, and a class's methods", () => {
    const chunk = code("src/queue.ts#a", ["JobQueue"], [
      "export class JobQueue {",
      "  private readonly jobs = []",
      "  async enqueueJob(job: Job): Promise<void> {",
      "    if (this.full()) throw new Error('full')",
      "  }",
      "  #drainAll() {}",
      "}"
    ].join("\n"), 10)
    const found = declarationsOf(chunk)
    assert.deepStrictEqual(found.map((d) => [d.name, d.kind, d.exported, d.line]), [
      ["JobQueue", "class", true, 10],
      ["enqueueJob", "method", true, 12],
      ["drainAll", "method", false, 15]
    ])
    const local = declarationsOf(code("src/a.py#b", ["_helper", "load_config"], "def _helper():\n  pass\ndef load_config(path):\n  return path"))
    assert.deepStrictEqual(local.map((d) => [d.name, d.kind, d.exported]), [["_helper", "function", false], ["load_config", "function", true]])
    const go = declarationsOf(code("pkg/x.go#c", ["parseFlags", "Run"], "func parseFlags() {}\nfunc Run() {}"))
    assert.deepStrictEqual(go.map((d) => d.exported), [false, true])
  })
})

describe("the symbol table", () => {
  const table = buildSymbolTable([
    code("src/query.ts#a", ["BudgetTokens"], "export const BudgetTokens = Schema.Int"),
    code("src/query.ts#b", ["MAX_BUDGET_TOKENS"], "export const MAX_BUDGET_TOKENS = 64_000"),
    code("src/budget.ts#a", ["budget"], "export const budget = 4"),
    code("src/retry.ts#a", ["withRetryBudget"], "function withRetryBudget() {}"),
    code("src/tokenizer.ts#a", ["countTokens"], "export function countTokens(text: string) {}"),
    code("test/query.test.ts#a", ["BudgetTokens"], "const BudgetTokens = 3", 1)
  ])

  it("ranks a name spelled whole first, then names whose parts the question covers; one shared word is no match", () => {
    const spelled = table.search("where is MAX_BUDGET_TOKENS checked", 10, everything, stopwords)
    assert.deepStrictEqual(spelled[0], { name: "MAX_BUDGET_TOKENS", kind: "variable", exported: true, chunk: "src/query.ts#b" as never, path: "src/query.ts", line: 1, match: "exact", score: spelled[0]!.score })
    const worded = table.search("how is the token budget enforced", 10, everything, stopwords)
    const names = worded.map((m) => m.name)
    // All parts named: the declarations of two parts both covered, exported before local.
    assert.deepStrictEqual(names.slice(0, 2), ["BudgetTokens", "BudgetTokens"])
    assert.deepStrictEqual(worded.slice(0, 2).map((m) => m.path), ["src/query.ts", "test/query.test.ts"])
    assert.isTrue(worded.every((m) => m.match !== "exact"))
    // A one-part name written as a plain word, and a name with one of three parts, are not matches.
    assert.notInclude(names, "budget")
    assert.notInclude(names, "withRetryBudget")
    // Written as code, the one-part name is.
    assert.strictEqual(table.search("where is `budget` read", 10, everything, stopwords)[0]?.name, "budget")
  })

  it("finds a part a longer question word begins, honours the filter and the limit, and is empty for nothing", () => {
    const begun = table.search("count tokenization cost", 10, everything, stopwords)
    assert.strictEqual(begun[0]?.name, "countTokens")
    const underSrc = table.search("token budget", 10, compile({ paths: ["test"] }), stopwords)
    assert.deepStrictEqual(underSrc.map((m) => m.path), ["test/query.test.ts"])
    assert.lengthOf(table.search("token budget", 1, everything, stopwords), 1)
    assert.deepStrictEqual(table.search("zzzz qqqq", 10, everything, stopwords), [])
    assert.deepStrictEqual(buildSymbolTable([]).search("token budget", 10, everything, stopwords), [])
  })

  it("gives the same table whatever order its chunks come in", () => {
    const chunks = [
      code("src/a.ts#a", ["parseConfigFile"], "export function parseConfigFile() {}"),
      code("src/b.ts#a", ["parseConfigFile"], "export function parseConfigFile() {}"),
      code("src/c.ts#a", ["ConfigParser"], "export class ConfigParser {}")
    ]
    const forward = buildSymbolTable(chunks).search("parse the config file", 10, everything, stopwords)
    const backward = buildSymbolTable([...chunks].reverse()).search("parse the config file", 10, everything, stopwords)
    assert.deepStrictEqual(forward, backward)
    assert.deepStrictEqual(forward.map((m) => m.path), ["src/a.ts", "src/b.ts", "src/c.ts"])
  })
})
