/**
 * A PostgreSQL server for the PostgreSQL layers' tests: the one `CAIRN_TEST_PG_URL` names (a real
 * server, as CI starts one), or PGlite in this process (PostgreSQL compiled to WASM, with its
 * `vector` extension) behind a loopback socket, so the layers speak the wire protocol either way.
 * Every test takes a repository key of its own, so tests share the database and never its rows.
 */
import { PGlite } from "@electric-sql/pglite"
import { vector } from "@electric-sql/pglite-pgvector"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"

export interface TestServer {
  readonly url: string
  /** Whether this is PGlite: one session behind the socket, so one connection at a time. */
  readonly inProcess: boolean
  readonly stop: () => Promise<void>
}

export const start = async (): Promise<TestServer> => {
  const external = process.env.CAIRN_TEST_PG_URL
  if (external !== undefined && external !== "") return { url: external, inProcess: false, stop: async () => {} }
  const db = await PGlite.create({ extensions: { vector } })
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 8 })
  await server.start()
  const address = server.getServerConn()
  return {
    url: `postgres://postgres:postgres@${address}/postgres`,
    inProcess: true,
    stop: async () => {
      await server.stop()
      await db.close()
    }
  }
}

let next = 0
/** A repository key no other test of this process uses. */
export const freshRepository = (): string => `test-${process.pid}-${++next}@main`
