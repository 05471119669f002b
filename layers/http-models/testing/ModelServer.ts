/**
 * A model server for tests, on 127.0.0.1 at a port of its own: OpenAI's `/v1/embeddings`,
 * Ollama's `/api/embed` and a `/rerank` in TEI's or Cohere's form. Vectors and scores are
 * functions of the text, so a test knows what to expect; faults are queued, one consumed per
 * request (a status with or without `Retry-After`, a hang, a wrong length), and every request is
 * recorded with its headers and body.
 */
import { Effect } from "effect"
import * as NodeHttp from "node:http"
import type { AddressInfo } from "node:net"

export type Fault =
  | { readonly status: number; readonly retryAfter?: string }
  | { readonly hang: true }
  | { readonly wrongDimensions: true }
  | { readonly unnormalised: true }
  | { readonly malformed: true }
  | { readonly duplicateIndex: true }

export interface Recorded {
  readonly path: string
  readonly headers: NodeHttp.IncomingHttpHeaders
  readonly body: unknown
  /** Milliseconds since the server started, by the host's monotonic clock. */
  readonly at: number
}

export interface ModelServer {
  url: string
  readonly requests: Array<Recorded>
  readonly faults: Array<Fault>
  /** The most requests that were in flight at once. */
  readonly maxInFlight: () => number
  /** Every later request answered with this fault (until set to undefined). */
  always: Fault | undefined
}

const WORD = /[\p{L}\p{N}]+/gu

const hashWord = (word: string): number => {
  let h = 2166136261
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619)
  return h >>> 0
}

/** The server's vector for `text`: word counts hashed into `dimensions` buckets, unit length. */
export const vectorOf = (text: string, dimensions: number): Array<number> => {
  const vector = Array.from({ length: dimensions }, (): number => 0)
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    const bucket = hashWord(word) % dimensions
    vector[bucket] = vector[bucket]! + 1
  }
  if (!vector.some((x) => x !== 0)) vector[0] = 1
  const norm = Math.hypot(...vector)
  return vector.map((x) => x / norm)
}

/** The server's score of `text` for `query`: the query words it holds, ties broken by shortness. */
export const scoreOf = (query: string, text: string): number => {
  const words = new Set(text.toLowerCase().match(WORD) ?? [])
  const hits = (query.toLowerCase().match(WORD) ?? []).filter((word) => words.has(word)).length
  return hits + 1 / (1 + text.length)
}

export const start = (options: { readonly dimensions?: number } = {}) =>
  Effect.acquireRelease(
    Effect.callback<{ server: NodeHttp.Server; state: ModelServer; sockets: Set<import("node:net").Socket> }>((resume) => {
      const dimensions = options.dimensions ?? 8
      const began = performance.now()
      let inFlight = 0
      let maxInFlight = 0
      const sockets = new Set<import("node:net").Socket>()
      const state: ModelServer = { url: "", requests: [], faults: [], maxInFlight: () => maxInFlight, always: undefined }
      const server = NodeHttp.createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          const done = () => {
            inFlight--
          }
          const text = Buffer.concat(chunks).toString("utf8")
          let body: unknown
          try {
            body = JSON.parse(text)
          } catch {
            body = text
          }
          const path = request.url ?? ""
          state.requests.push({ path, headers: request.headers, body, at: performance.now() - began })
          const fault = state.always ?? state.faults.shift()
          const send = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
            // A little latency, so concurrent requests overlap as they would on a real server.
            setTimeout(() => {
              response.writeHead(status, { "content-type": "application/json", ...headers })
              response.end(typeof payload === "string" ? payload : JSON.stringify(payload))
              done()
            }, 15)
          if (fault !== undefined && "hang" in fault) return
          if (fault !== undefined && "status" in fault) {
            const echo = fault.status === 401 ? { error: `Incorrect API key provided: ${request.headers.authorization ?? ""}` } : { error: `injected ${fault.status}` }
            return send(fault.status, echo, fault.retryAfter === undefined ? {} : { "retry-after": fault.retryAfter })
          }
          if (fault !== undefined && "malformed" in fault) return send(200, { unexpected: true })
          const length = fault !== undefined && "wrongDimensions" in fault ? dimensions - 1 : dimensions
          const scale = fault !== undefined && "unnormalised" in fault ? 3 : 1
          const embed = (input: unknown) => (Array.isArray(input) ? input : [input]).map((t) => vectorOf(String(t), dimensions).slice(0, length).map((x) => x * scale))
          const payload = body as { input?: unknown; query?: string; texts?: Array<string>; documents?: Array<string>; model?: string }
          if (path === "/v1/embeddings") {
            const vectors = embed(payload.input)
            // Out of order on purpose: the API promises only `index`.
            const duplicate = fault !== undefined && "duplicateIndex" in fault
            return send(200, { object: "list", model: payload.model, data: vectors.map((embedding, index) => ({ object: "embedding", index: duplicate ? 0 : index, embedding })).reverse() })
          }
          if (path === "/api/embed") return send(200, { model: payload.model, embeddings: embed(payload.input) })
          if (path === "/rerank") {
            const texts = payload.texts ?? payload.documents ?? []
            const scored = texts.map((t, index) => ({ index, score: scoreOf(payload.query ?? "", t) })).sort((a, b) => b.score - a.score)
            return payload.documents !== undefined
              ? send(200, { results: scored.map((s) => ({ index: s.index, relevance_score: s.score })) })
              : send(200, scored)
          }
          return send(404, { error: `no route ${path}` })
        })
      })
      server.on("connection", (socket) => {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      server.listen(0, "127.0.0.1", () => {
        state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resume(Effect.succeed({ server, state, sockets }))
      })
    }),
    ({ server, sockets }) =>
      Effect.callback<void>((resume) => {
        // Hung requests hold their sockets open; the server closes only once they are gone.
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ state }) => state))
