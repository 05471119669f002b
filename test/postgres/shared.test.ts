/**
 * The shared index end to end: a repository indexed into PostgreSQL and answered from it through
 * the Promise API and the command line, under a repository key of its own; the URL's password
 * kept out of everything printed; a database from a newer cairn refused; one writer at a time; a
 * connection lost mid-question. PGlite in this process by default, the server `CAIRN_TEST_PG_URL`
 * names when set.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect, Exit, Layer, Scope } from "effect"
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import * as Net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ModelServer from "../../layers/http-models/testing/ModelServer.ts"
import * as IndexStorePg from "../../layers/postgres/IndexStorePg.ts"
import * as PgIndex from "../../layers/postgres/PgIndex.ts"
import { freshRepository, start } from "../../layers/postgres/testing/PgServer.ts"
import { makeChunk } from "../../layers/contracts/ChunkFixtures.ts"
import { coldBuild } from "../../layers/sqlite/testing/Fixtures.ts"
import { openCairn } from "../../pipelines/openCairn.ts"
import { IndexStore } from "../../src/ports/IndexStore.ts"

const server = await start()
afterAll(() => server.stop(), 30_000)

const cli = join(import.meta.dirname, "..", "..", "bin", "cairn.js")
/** The command line, run without blocking this process: PGlite answers from its event loop. */
const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 120_000, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })

const write = (root: string, path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true })
  writeFileSync(join(root, path), text)
}

const repository = () => {
  const root = mkdtempSync(join(tmpdir(), "cairn-pg-"))
  write(root, "docs/rollback.md", "# Rolling back\n\n## Steps\n\nRun `deployctl rollback --to previous` and confirm the health checks pass.\n")
  write(root, "docs/retention.md", "# Log retention\n\n## Policy\n\nApplication logs are kept for 30 days in the archive bucket.\n")
  write(root, "src/rollback.ts", "/** Chooses the rollback target. */\nexport const rollbackTarget = (releases: ReadonlyArray<string>): string | undefined => releases.at(-2)\n")
  return root
}

/** The server's URL with a password in it, which nothing cairn prints may show. */
const SECRET = "pw-9f3b27c1e4"
const withPassword = (url: string) => {
  const parsed = new URL(url)
  parsed.password = SECRET
  return parsed.toString()
}

/**
 * A TCP relay in front of the server that can drop every connection it carries the first time a
 * statement holding `marker` passes through it, as a network or a server restart drops them.
 */
const relay = async (target: string) => {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Net.Socket>()
  let marker: string | undefined
  const proxy = Net.createServer((client) => {
    const upstream = Net.connect(Number(port), hostname)
    sockets.add(client).add(upstream)
    client.on("data", (data) => {
      if (marker !== undefined && data.includes(marker)) {
        marker = undefined
        for (const socket of sockets) socket.destroy()
        sockets.clear()
        return
      }
      upstream.write(data)
    })
    upstream.on("data", (data) => client.write(data))
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on("error", end).on("close", end)
    upstream.on("error", end).on("close", end)
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const address = proxy.address() as Net.AddressInfo
  const url = new URL(target)
  url.port = String(address.port)
  return {
    url: url.toString(),
    dropOn: (text: string) => {
      marker = text
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      proxy.close(() => resolve())
    })
  }
}

describe("a shared index on PostgreSQL", () => {
  it("openCairn({ store }) indexes into the server and answers from it, each repository under its own key", async () => {
    const root = repository()
    const key = freshRepository()
    try {
      const cairn = await openCairn({ root, store: server.url, repository: key })
      const pack = await cairn.recall("how do I roll back a deploy with deployctl?")
      assert.strictEqual(pack.claims[0]?.note, "docs/rollback.md")
      const status = await cairn.status()
      assert.deepStrictEqual(status.pending, { added: [], changed: [], deleted: [] })
      write(root, "docs/oncall.md", "# On call\n\n## Rota\n\nThe platform rota changes every Monday at 09:00.\n")
      const report = await cairn.refresh()
      assert.strictEqual(report.notesIndexed, 1)
      assert.strictEqual((await cairn.recall("when does the platform rota change?")).claims[0]?.note, "docs/oncall.md")
      await cairn.close()
      // Another key on the same server holds none of it.
      const other = await openCairn({ root, store: server.url, repository: `${key}-other`, refreshOnOpen: false })
      const empty = await other.recall("how do I roll back a deploy with deployctl?")
      assert.strictEqual(empty.claims.length, 0)
      assert.isAbove(empty.gaps.length, 0)
      await other.close()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 180_000)

  it("an HTTP embedding model indexes into the server and embeds questions, its space checked there too", async () => {
    const root = repository()
    const key = freshRepository()
    const scope = Effect.runSync(Scope.make())
    const models = await Effect.runPromise(Scope.provide(ModelServer.start({ dimensions: 16 }), scope))
    const configure = (model: string) =>
      write(root, "cairn.config.json", JSON.stringify({ models: { embedder: { kind: "ollama", url: models.url, model, dimensions: 16, timeoutMs: 2_000, retries: 1 } } }))
    try {
      configure("test-embed")
      const cairn = await openCairn({ root, store: server.url, repository: key })
      const sent = models.requests.flatMap((r) => (r.body as { input: Array<string> }).input)
      assert.isAbove(sent.length, 2)
      const pack = await cairn.recall("how do I roll back a deploy with deployctl?", { explain: true })
      assert.strictEqual(pack.diagnostics?.legs.find((leg) => leg.name === "dense")?.status, "ok")
      assert.strictEqual(pack.claims[0]?.note, "docs/rollback.md")
      // The endpoint down: the dense leg says so, the lexical leg answers.
      models.always = { status: 500 }
      const degraded = await cairn.recall("how long are application logs kept?", { explain: true })
      assert.strictEqual(degraded.diagnostics?.legs.find((leg) => leg.name === "dense")?.status, "failed")
      assert.strictEqual(degraded.claims[0]?.note, "docs/retention.md")
      models.always = undefined
      await cairn.close()
      // Another model over the same rows: refused until re-embedded, never mixed.
      configure("test-embed-2")
      const changed = await openCairn({ root, store: server.url, repository: key, refreshOnOpen: false })
      const mismatched = await changed.recall("how do I roll back?", { explain: true })
      assert.strictEqual(mismatched.diagnostics?.legs.find((leg) => leg.name === "dense")?.status, "failed")
      assert.isTrue((await changed.refresh()).retrained)
      const after = await changed.recall("how do I roll back?", { explain: true })
      assert.strictEqual(after.diagnostics?.legs.find((leg) => leg.name === "dense")?.status, "ok")
      await changed.close()
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
      rmSync(root, { recursive: true, force: true })
    }
  }, 180_000)

  it("the command line: --store and CAIRN_STORE, status names the server without the password, which nothing prints", async () => {
    const root = repository()
    const url = withPassword(server.url)
    const key = freshRepository()
    try {
      const indexed = await run(["index", "--root", root, "--store", url], { CAIRN_REPOSITORY: key })
      assert.strictEqual(indexed.status, 0, indexed.stderr)
      const status = await run(["status", "--root", root, "--json"], { CAIRN_STORE: url, CAIRN_REPOSITORY: key })
      assert.strictEqual(status.status, 0, status.stderr)
      const report = JSON.parse(status.stdout) as { index: string; chunks: number; vectorStorage: string }
      assert.isTrue(report.index.endsWith(`#${key}`))
      assert.isAbove(report.chunks, 0)
      assert.include(["pgvector", "real[]"], report.vectorStorage)
      const asked = await run(["ask", "how long are application logs kept?", "--root", root, "--json", "--no-refresh"], { CAIRN_STORE: url, CAIRN_REPOSITORY: key })
      assert.strictEqual(asked.status, 0, asked.stderr)
      assert.strictEqual((JSON.parse(asked.stdout) as { claims: Array<{ ref: string }> }).claims[0]?.ref.startsWith("docs/retention.md"), true)
      // A server that is not there: a clear error, and still no password.
      const unreachable = new URL(url)
      unreachable.port = "1"
      const failed = await run(["ask", "anything", "--root", root, "--no-refresh", "--store", unreachable.toString()])
      assert.notStrictEqual(failed.status, 0)
      assert.match(failed.stderr, /postgres:\/\/[^ ]*127\.0\.0\.1:1\//)
      const bad = await run(["status", "--root", root, "--store", "mysql://somewhere/db"])
      assert.notStrictEqual(bad.status, 0)
      assert.match(bad.stderr, /store/)
      for (const output of [indexed, status, asked, failed]) {
        assert.notInclude(output.stdout + output.stderr, SECRET)
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 240_000)

  it("cairn mcp --store serves ask and status from the server", async () => {
    const root = repository()
    const key = freshRepository()
    try {
      const indexed = await run(["index", "--root", root, "--store", server.url], { CAIRN_REPOSITORY: key })
      assert.strictEqual(indexed.status, 0, indexed.stderr)
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cli, "mcp", "--root", root, "--store", server.url],
        env: { ...process.env, CAIRN_REPOSITORY: key } as Record<string, string>,
        stderr: "pipe"
      })
      const client = new Client({ name: "cairn-test", version: "0" })
      await client.connect(transport)
      try {
        const asked = await client.callTool({ name: "ask", arguments: { query: "how long are application logs kept?", budgetTokens: 800 } })
        const pack = JSON.parse((asked.content as Array<{ text: string }>)[0]!.text) as { claims: Array<{ ref: string }> }
        assert.isTrue(pack.claims[0]?.ref.startsWith("docs/retention.md"), JSON.stringify(pack.claims.map((claim) => claim.ref)))
        const status = await client.callTool({ name: "status", arguments: {} })
        assert.include((status.content as Array<{ text: string }>)[0]!.text, `#${key}`)
      } finally {
        await client.close()
      }
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 180_000)

  it.effect("a database migrated by a newer cairn is refused before anything is read", () =>
    Effect.gen(function*() {
      const opened = yield* Layer.build(PgIndex.layer({ url: server.url, repository: freshRepository(), maxConnections: 1 }))
      const pg = (yield* Effect.promise(async () => (await import("effect")).Context.get(opened, PgIndex.PgIndex)))
      yield* pg.sql.unsafe("INSERT INTO cairn_migrations (migration_id, name) VALUES (99, 'from_the_future')")
      const refused = yield* Effect.flip(Effect.scoped(Layer.build(PgIndex.layer({ url: server.url, repository: freshRepository(), maxConnections: 1 }))))
      yield* pg.sql.unsafe("DELETE FROM cairn_migrations WHERE migration_id = 99")
      assert.strictEqual(refused.reason, "schema_too_new")
      assert.match(refused.message, /schema 99/)
    }).pipe(Effect.scoped), 60_000)

  it.effect("one writer at a time: a second is refused at once, and the first commits whole", () =>
    Effect.gen(function*() {
      const key = freshRepository()
      const chunks = [makeChunk({ id: "docs/a.md#x", text: "alpha" })]
      const first = yield* Layer.build(IndexStorePg.layer.pipe(Layer.provide(PgIndex.layer({ url: server.url, repository: key, maxConnections: 1 }))))
      const second = yield* Layer.build(Layer.fresh(IndexStorePg.layer.pipe(Layer.provide(PgIndex.layer({ url: server.url, repository: key, maxConnections: 1 })))))
      const { Context, Deferred, Fiber, Stream } = yield* Effect.promise(() => import("effect"))
      const writerA = Context.get(first, IndexStore)
      const writerB = Context.get(second, IndexStore)
      const holding = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // A rebuild that holds the lock until told to finish.
      const build = yield* Effect.forkChild(writerA.rebuild(
        { parts: Stream.make({ notes: [{ id: "docs/a.md", contentHash: "h" }], chunks }), manifest: { snapshotHash: "s1", builtAt: "2025-03-01T12:00:00Z" } },
        () => Effect.andThen(Deferred.succeed(holding, undefined), Deferred.await(release))
      ))
      yield* Deferred.await(holding)
      if (server.inProcess) {
        // PGlite serves one session: the second writer's statements wait for the first's transaction.
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(build)
      } else {
        const refused = yield* Effect.flip(writerB.write(coldBuild(chunks)))
        assert.strictEqual(refused.reason, "write_failed")
        assert.match(refused.message, /another process is writing/)
        // Readers are not blocked meanwhile, and see the previous commit (none).
        assert.isUndefined(yield* writerB.manifest)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(build)
      }
      assert.strictEqual((yield* writerB.manifest)?.snapshotHash, "s1")
    }).pipe(Effect.scoped), 60_000)

  it("a connection lost mid-question fails the legs on it with a leg_failed gap, and the next question reconnects", async () => {
    const root = repository()
    const key = freshRepository()
    const proxy = await relay(server.url)
    try {
      const cairn = await openCairn({ root, store: proxy.url, repository: key })
      // The lexical leg's statement: every connection drops as it is first sent (later questions
      // run it as the statement prepared on their connection).
      proxy.dropOn("cairn_postings p ON")
      const degraded = await cairn.recall("how long are application logs kept in the archive bucket?")
      assert.isTrue(degraded.gaps.some((gap) => gap.reason === "leg_failed"), JSON.stringify(degraded.gaps))
      const again = await cairn.recall("how long are application logs kept in the archive bucket?")
      assert.isFalse(again.gaps.some((gap) => gap.reason === "leg_failed"), JSON.stringify(again.gaps))
      assert.strictEqual(again.claims[0]?.note, "docs/retention.md")
      await cairn.close()
    } finally {
      await proxy.close()
      rmSync(root, { recursive: true, force: true })
    }
  }, 180_000)
})
