/**
 * `cairn mcp` driven by the official MCP client, as an agent's host drives it: over stdio and over
 * streamable HTTP; the tools listed with valid schemas; each tool's payload equal to its CLI
 * command's `--json`; concurrent calls; an edit seen by the next answers, and reported as staleness
 * until then; hostile arguments answered with a tool error or an honest gap without killing the
 * server; the budget contracts over the wire; a refresh that fails leaving the server answering.
 */
import { assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import * as ContextPack from "../../src/domain/ContextPack.ts"

const repository = join(import.meta.dirname, "..", "..")
const cli = join(repository, "bin", "cairn.js")
const node = process.execPath

const cairn = (args: ReadonlyArray<string>) => {
  const result = spawnSync(node, [cli, ...args], { encoding: "utf8", timeout: 60_000 })
  assert.strictEqual(result.status, 0, result.stderr)
  return result.stdout.trim()
}

const fixture = (): string => {
  const root = mkdtempSync(join(tmpdir(), "cairn-mcp-"))
  mkdirSync(join(root, "docs"))
  mkdirSync(join(root, "src"))
  writeFileSync(join(root, "docs/budget.md"), "# Budgets\n\n## Enforcement\n\nThe packer never spends more than the token budget the caller names.\nSee `src/pack.ts`.\n")
  writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Choice\n\nDispatch events go over NATS JetStream, retried three times.\n")
  writeFileSync(join(root, "src/pack.ts"), "import { count } from \"./tokens.ts\"\n\n/** Packs claims inside the budget. */\nexport const packClaims = (texts: Array<string>, budget: number) => {\n  let used = 0\n  return texts.filter((text) => (used += count(text)) <= budget)\n}\n")
  writeFileSync(join(root, "src/tokens.ts"), "/** Counts tokens the way the model does. */\nexport const count = (text: string): number => Math.ceil(text.length / 4)\n")
  cairn(["index", "--root", root])
  return root
}

interface Connected {
  readonly client: Client
  readonly close: () => Promise<void>
}

const overStdio = async (root: string, extra: ReadonlyArray<string> = []): Promise<Connected> => {
  const transport = new StdioClientTransport({ command: node, args: [cli, "mcp", "--root", root, ...extra], stderr: "pipe" })
  const client = new Client({ name: "cairn-test", version: "0" })
  await client.connect(transport)
  return { client, close: () => client.close() }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const overHttp = async (root: string): Promise<Connected> => {
  const port = await freePort()
  const child = spawn(node, [cli, "mcp", "--root", root, "--http", String(port)], { stdio: ["ignore", "ignore", "pipe"] })
  // Listening is announced on standard error before the first request can be served.
  await new Promise<void>((resolve, reject) => {
    let seen = ""
    child.stderr.on("data", (data: Buffer) => {
      seen += data.toString()
      if (seen.includes("serving")) setTimeout(resolve, 300)
    })
    child.once("exit", (code) => reject(new Error(`cairn mcp --http exited with ${code}: ${seen}`)))
  })
  const client = new Client({ name: "cairn-test", version: "0" })
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
      break
    } catch (error) {
      if (attempt > 20) throw error
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  return {
    client,
    close: async () => {
      await client.close()
      child.kill()
    }
  }
}

interface ToolText {
  readonly isError: boolean
  readonly text: string
}

const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolText> => {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as Array<{ readonly type: string; readonly text: string }>
  return { isError: result.isError === true, text: content[0]?.text ?? "" }
}

const json = (result: ToolText): Record<string, unknown> => {
  assert.isFalse(result.isError, result.text)
  return JSON.parse(result.text) as Record<string, unknown>
}

const until = async <A>(probe: () => Promise<A | undefined>, ms: number): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe("cairn mcp", () => {
  it("stdio: tools, schemas, payloads equal to the CLI's, concurrency, hostile arguments, budgets", { timeout: 240_000 }, async () => {
    const root = fixture()
    const { client, close } = await overStdio(root)
    try {
      const { tools } = await client.listTools()
      assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), ["ask", "lookup", "search", "status"])
      const validator = new AjvJsonSchemaValidator()
      for (const tool of tools) {
        assert.isAbove((tool.description ?? "").length, 60, `${tool.name} needs a description a model can choose by`)
        // Compiling fails on a schema that is not valid JSON Schema.
        validator.getValidator(tool.inputSchema as never)
        if (tool.outputSchema !== undefined) validator.getValidator(tool.outputSchema as never)
      }
      const search = tools.find((tool) => tool.name === "search")!
      assert.isTrue(validator.getValidator(search.inputSchema as never)({ query: "budget", limit: 5 }).valid)
      assert.isFalse(validator.getValidator(search.inputSchema as never)({ query: "budget", unknown: 1 }).valid)

      // Each tool returns what its command prints with --json (the same index, nothing changed since).
      const question = "how is the token budget enforced?"
      const asked = await call(client, "ask", { query: question, budgetTokens: 1_000 })
      assert.strictEqual(asked.text, cairn(["ask", question, "--root", root, "--budget", "1000", "--json", "--no-refresh"]))
      const searched = await call(client, "search", { query: "budget tokens", kinds: ["module", "document", "symbol"], limit: 5 })
      assert.strictEqual(
        searched.text,
        cairn(["search", "budget tokens", "--root", root, "--kind", "module", "--kind", "document", "--kind", "symbol", "--limit", "5", "--json", "--no-refresh"])
      )
      const looked = await call(client, "lookup", { path: "src/pack.ts", depth: 2 })
      assert.strictEqual(looked.text, cairn(["lookup", "--path", "src/pack.ts", "--depth", "2", "--root", root, "--json", "--no-refresh"]))
      const lookup = json(looked) as { entity: { id: string }; neighbours: Array<{ relation: string; entries: Array<{ id: string; direction: string }> }> }
      assert.strictEqual(lookup.entity.id, "module:src/pack.ts")
      assert.deepInclude(lookup.neighbours.find((group) => group.relation === "imports")?.entries ?? [], { id: "module:src/tokens.ts", kind: "module", direction: "out", distance: 1, via: "module:src/pack.ts" } as never)
      const { server, ...status } = json(await call(client, "status", {})) as Record<string, unknown> & { server: { state: string; lastRefresh: { outcome: string } } }
      const { ageSeconds: _served, ...statusCore } = status
      const { ageSeconds: _printed, ...cliCore } = JSON.parse(cairn(["status", "--root", root, "--json"])) as Record<string, unknown>
      assert.deepStrictEqual(statusCore, cliCore)
      assert.strictEqual(server.lastRefresh.outcome, "ok")

      // Concurrent calls are answered, each as it would be alone.
      const alone = json(await call(client, "search", { query: "dispatch events queue" }))
      const together = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0 ? call(client, "search", { query: "dispatch events queue" })
          : i % 3 === 1 ? call(client, "ask", { query: "which queue carries dispatch events?", budgetTokens: 300 })
          : call(client, "lookup", { symbol: "count" })
      ))
      for (const [i, result] of together.entries()) {
        assert.isFalse(result.isError, result.text)
        if (i % 3 === 0) assert.deepStrictEqual(JSON.parse(result.text), alone)
      }

      // Hostile arguments: a tool error naming the field, or an honest gap; fast; the server lives on.
      for (const [name, args] of [
        ["ask", { query: "a".repeat(50_000) }],
        ["ask", { query: "word ".repeat(200_000) }],
        ["ask", { query: "検索".repeat(5_000) }],
        ["search", { query: "z".repeat(50_000), limit: 200 }]
      ] as const) {
        const started = Date.now()
        const result = await call(client, name, args)
        assert.isBelow(Date.now() - started, 30_000)
        if (result.isError) assert.notMatch(result.text, /\n/)
        else if (name === "ask") {
          const pack = ContextPack.decodeWireSync(JSON.parse(result.text))
          assert.isTrue(pack.claims.length > 0 || pack.gaps.length > 0)
          assert.isAtMost(pack.usedTokens, pack.budgetTokens)
        }
      }
      const negative = await call(client, "ask", { query: question, budgetTokens: -5 })
      assert.isTrue(negative.isError)
      assert.match(negative.text, /budgetTokens/)
      const deep = await call(client, "search", { query: "budget", offset: 190, limit: 20 })
      assert.isTrue(deep.isError)
      assert.match(deep.text, /offset \+ limit must be at most 200/)
      const unknownPath = await call(client, "lookup", { path: "src/nowhere.ts" })
      assert.isTrue(unknownPath.isError)
      assert.match(unknownPath.text, /no entity for path "src\/nowhere.ts"/)
      const twoNames = await call(client, "lookup", { path: "src/pack.ts", symbol: "count" })
      assert.isTrue(twoNames.isError)
      assert.match(twoNames.text, /exactly one of id, path, symbol or ref/)
      const unknownField = await call(client, "ask", { query: question, budget: 5 })
      assert.isTrue(unknownField.isError)
      assert.match(unknownField.text, /budget/)

      // The budget contracts hold over the wire.
      for (const budgetTokens of [0, 1, 40, 400, 4_000, 32_000]) {
        const pack = ContextPack.decodeWireSync(json(await call(client, "ask", { query: question, budgetTokens })))
        assert.isAtMost(pack.usedTokens, pack.budgetTokens)
        assert.isTrue(pack.claims.length > 0 || pack.gaps.length > 0)
      }
      for (const budgetTokens of [0, 60, 200, 2_000]) {
        const trimmed = json(await call(client, "lookup", { path: "docs/budget.md", budgetTokens })) as {
          entity: { id: string }
          evidence: Array<{ path: string; contentHash: string | null }>
          budget: { fits: boolean; tokens: { total: number; core: number }; tokenMethod: string; dropped: Array<string>; kept: Array<string> }
        }
        assert.strictEqual(trimmed.entity.id, "document:docs/budget.md")
        assert.strictEqual(trimmed.evidence[0]?.path, "docs/budget.md")
        assert.isString(trimmed.evidence[0]?.contentHash)
        assert.strictEqual(trimmed.budget.tokenMethod, "cl100k")
        if (trimmed.budget.fits) assert.isAtMost(trimmed.budget.tokens.total, budgetTokens)
        else assert.isAbove(trimmed.budget.tokens.core, budgetTokens)
      }
      // Still serving after all of it.
      assert.isFalse((await call(client, "status", {})).isError)
    } finally {
      await close()
      rmSync(root, { recursive: true, force: true })
    }
  })

  it.each([["fs.watch", []], ["polling", ["--poll"]]] as const)("stdio, %s: an edit is seen by the next answers, and reported as staleness until then", { timeout: 120_000 }, async (_how, flags) => {
    const root = fixture()
    const { client, close } = await overStdio(root, ["--wait-ms", "0", ...flags])
    try {
      await until(async () => ((json(await call(client, "status", {})) as { server: { refreshes: number } }).server.refreshes > 0 ? true : undefined), 30_000)
      writeFileSync(join(root, "docs/ledger.md"), "# Ledger\n\n## Reconciliation\n\nThe quarkspindle job reconciles the ledger every night.\n")
      const written = Date.now()
      const seen = await until(async () => {
        const response = json(await call(client, "search", { query: "quarkspindle" })) as {
          results: Array<{ path: string }>
          indexHealth: { filesChanged?: number }
        }
        if (response.results.some((result) => result.path === "docs/ledger.md")) return Date.now() - written
        // Not yet in the index: the answer must say it is behind, once the watcher (or a poll) has seen the write.
        if (Date.now() - written > (flags.length > 0 ? 6_000 : 500)) assert.isAtLeast(response.indexHealth.filesChanged ?? 0, 1)
        return undefined
      }, 20_000)
      assert.isBelow(seen, 20_000)
      // Under load the watcher's report of the write can land after the refresh that indexed it
      // began, so staleness may show once more; it must clear by the next refresh.
      const pack = await until(async () => {
        const answer = ContextPack.decodeWireSync(JSON.parse((await call(client, "ask", { query: "which job reconciles the ledger?" })).text))
        return answer.indexHealth.filesChanged === 0 ? answer : undefined
      }, 20_000)
      assert.strictEqual(pack.claims[0]?.note, "docs/ledger.md")
    } finally {
      await close()
      rmSync(root, { recursive: true, force: true })
    }
  })

  it("a refresh that fails leaves the server answering from the previous index, and status says so", { timeout: 120_000 }, async () => {
    const root = fixture()
    const { client, close } = await overStdio(root, ["--wait-ms", "0"])
    const holder = new DatabaseSync(join(root, ".cairn", "index.sqlite"))
    try {
      await until(async () => ((json(await call(client, "status", {})) as { server: { refreshes: number } }).server.refreshes > 0 ? true : undefined), 30_000)
      // Another writer holds the index: the next refresh cannot commit.
      holder.exec("BEGIN EXCLUSIVE")
      writeFileSync(join(root, "docs/queues.md"), "# Queues\n\n## Choice\n\nDispatch events go over Kafka now.\n")
      const failed = await until(async () => {
        const { server } = json(await call(client, "status", {})) as { server: { lastRefresh: { outcome: string; detail: string } | null } }
        return server.lastRefresh?.outcome === "failed" ? server.lastRefresh : undefined
      }, 60_000)
      assert.isAbove(failed.detail.length, 0)
      const pack = ContextPack.decodeWireSync(JSON.parse((await call(client, "ask", { query: "which queue carries dispatch events?" })).text))
      assert.strictEqual(pack.claims[0]?.note, "docs/queues.md")
      assert.match(pack.claims[0]!.text, /NATS JetStream/)
      assert.isAtLeast(pack.indexHealth.filesChanged ?? 0, 1)
      holder.exec("ROLLBACK")
    } finally {
      holder.close()
      await close()
      rmSync(root, { recursive: true, force: true })
    }
  })

  it("with a shadow configuration, ask answers as without it and logs the candidate's difference", { timeout: 120_000 }, async () => {
    const root = fixture()
    try {
      const question = { query: "how is the token budget enforced?", budgetTokens: 2_000 }
      const plain = await overStdio(root)
      const stable = json(await call(plain.client, "ask", question))
      await plain.close()
      writeFileSync(join(root, "cairn.config.json"), JSON.stringify({ shadow: { retrieval: { rerankLimit: 1 } } }))
      const shadowed = await overStdio(root)
      try {
        assert.deepStrictEqual(json(await call(shadowed.client, "ask", question)), stable)
      } finally {
        await shadowed.close()
      }
      const [record] = readFileSync(join(root, ".cairn", "shadow.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line))
      assert.strictEqual(record.query, question.query)
      assert.strictEqual(record.candidate.length, 1)
      assert.deepStrictEqual(record.stable, (stable.claims as Array<{ ref: string }>).map((claim) => claim.ref))
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it("stdio: the server exits when its client closes its input", { timeout: 60_000 }, async () => {
    const root = fixture()
    try {
      const child = spawn(node, [cli, "mcp", "--root", root], { stdio: ["pipe", "pipe", "ignore"] })
      const answered = new Promise<string>((resolve) => child.stdout.once("data", (data: Buffer) => resolve(data.toString())))
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } })}\n`)
      assert.match(await answered, /"protocolVersion":"2025-06-18"/)
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve))
      child.stdin.end()
      const code = await Promise.race([exited, new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000))])
      if (code === "running") child.kill()
      assert.strictEqual(code, 0)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it("streamable HTTP: the same tools on loopback", { timeout: 120_000 }, async () => {
    const root = fixture()
    const { client, close } = await overHttp(root)
    try {
      const { tools } = await client.listTools()
      assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), ["ask", "lookup", "search", "status"])
      const searched = json(await call(client, "search", { query: "dispatch events" })) as { results: Array<{ path: string }> }
      assert.strictEqual(searched.results[0]?.path, "docs/queues.md")
      const pack = ContextPack.decodeWireSync(JSON.parse((await call(client, "ask", { query: "which queue carries dispatch events?", budgetTokens: 200 })).text))
      assert.isAtMost(pack.usedTokens, 200)
      assert.isTrue((await call(client, "ask", { query: "x", budgetTokens: 40_000 })).isError)
    } finally {
      await close()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
