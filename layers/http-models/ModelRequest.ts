/**
 * One JSON request to a model endpoint, with what a remote model needs to be usable from an index
 * run: a time limit per attempt, retries with exponential backoff on 429, 5xx, timeouts and lost
 * connections, and the server's `Retry-After` honoured in place of the backoff. The key goes in the
 * `Authorization` header and nowhere else: errors carry the endpoint, the status and a redacted
 * snippet of the body, never the key (an endpoint that refuses a key may echo it back).
 */
import { Clock, Duration, Effect, Schema } from "effect"

/** Backoff before the first retry, doubled for each after it, up to `MAX_BACKOFF_MS`. */
export const BASE_BACKOFF_MS = 250
export const MAX_BACKOFF_MS = 10_000
/** The longest `Retry-After` waited for; a server asking for longer is waited for this long. */
export const MAX_RETRY_AFTER_MS = 60_000
/** Characters of a response body an error quotes. */
const SNIPPET = 200

export class ModelRequestError extends Schema.TaggedError<ModelRequestError>()("ModelRequestError", {
  /** The endpoint as shown to people: no credentials, no query string. */
  endpoint: Schema.String,
  /** The HTTP status of the last attempt; 0 when none came back. */
  status: Schema.Int,
  attempts: Schema.Int,
  detail: Schema.String
}) {
  override get message(): string {
    const tries = this.attempts === 1 ? "1 attempt" : `${this.attempts} attempts`
    const status = this.status === 0 ? "" : ` answered ${this.status}`
    return `${this.endpoint}${status} (${tries}): ${this.detail}`
  }
}

export interface ModelRequest {
  readonly url: string
  readonly body: unknown
  readonly key: string | undefined
  /** The variable the key came from, named when the endpoint refuses it. */
  readonly keyEnv?: string | undefined
  readonly timeoutMs: number
  readonly retries: number
}

/** `url` as an error may show it. */
export const shownEndpoint = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return "(unparsable URL)"
  }
}

/** `text` with every occurrence of `key` blotted out and cut to a snippet, on one line. */
export const redacted = (text: string, key: string | undefined): string => {
  const clean = key === undefined || key === "" ? text : text.split(key).join("[key]")
  const line = clean.replace(/\s+/g, " ").trim()
  return line.length > SNIPPET ? `${line.slice(0, SNIPPET)}…` : line
}

type Outcome =
  | { readonly _tag: "Answered"; readonly status: number; readonly retryAfter: string | null; readonly text: string }
  | { readonly _tag: "Unanswered"; readonly detail: string }

const isRetryable = (outcome: Outcome): boolean =>
  outcome._tag === "Unanswered" || outcome.status === 429 || outcome.status >= 500

/** How long `Retry-After` asks to wait, in milliseconds, when it says: seconds or an HTTP date. */
export const retryAfterMs = (header: string | null, now: number): number | undefined => {
  if (header === null) return undefined
  const value = header.trim()
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(MAX_RETRY_AFTER_MS, Number(value) * 1_000)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now))
}

export const backoffMs = (retry: number): number => Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** retry)

const attemptOnce = (request: ModelRequest): Effect.Effect<Outcome> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(request.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          ...(request.key === undefined ? {} : { authorization: `Bearer ${request.key}` })
        },
        body: JSON.stringify(request.body),
        signal
      })
      // The body is read inside the time limit too: a server may send headers and then stall.
      const text = await response.text()
      return { _tag: "Answered", status: response.status, retryAfter: response.headers.get("retry-after"), text } satisfies Outcome
    },
    catch: (error) => error
  }).pipe(
    Effect.catch((error): Effect.Effect<Outcome> => {
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ""
      return Effect.succeed({ _tag: "Unanswered", detail: `no answer (${error instanceof Error ? error.message : String(error)}${cause})` })
    }),
    Effect.timeoutOrElse({
      duration: Duration.millis(request.timeoutMs),
      orElse: () => Effect.succeed<Outcome>({ _tag: "Unanswered", detail: `no answer within ${request.timeoutMs} ms (timeoutMs)` })
    })
  )

const failureDetail = (outcome: Outcome, request: ModelRequest): string => {
  // What fetch says of a request it could not send may quote its headers, the key among them.
  if (outcome._tag === "Unanswered") return `${redacted(outcome.detail, request.key)}; check that the endpoint is up and reachable, or raise timeoutMs`
  if (outcome.status === 401 || outcome.status === 403) {
    // The variable is named by the field, not by its name: a key pasted into keyEnv must not be printed.
    return request.keyEnv === undefined
      ? "the endpoint wants a key; name the environment variable that holds it in keyEnv"
      : "the endpoint refused the key from the variable keyEnv names; check it"
  }
  const body = redacted(outcome.text, request.key)
  const hint = outcome.status === 404 ? "; check the URL and the model name" : outcome.status === 429 ? "; the endpoint is rate limiting, lower concurrency or raise retries" : ""
  return `${body === "" ? "an empty body" : body}${hint}`
}

/** The endpoint's JSON answer to `request`, retried as the file's header says. */
export const post = Effect.fn("ModelRequest.post")(function*(request: ModelRequest): Effect.fn.Return<unknown, ModelRequestError> {
  const endpoint = shownEndpoint(request.url)
  for (let attempt = 1; ; attempt++) {
    const outcome = yield* attemptOnce(request)
    if (outcome._tag === "Answered" && outcome.status >= 200 && outcome.status < 300) {
      try {
        return JSON.parse(outcome.text) as unknown
      } catch {
        return yield* new ModelRequestError({ endpoint, status: outcome.status, attempts: attempt, detail: `the answer is not JSON: ${redacted(outcome.text, request.key)}` })
      }
    }
    if (!isRetryable(outcome) || attempt > request.retries) {
      return yield* new ModelRequestError({
        endpoint,
        status: outcome._tag === "Answered" ? outcome.status : 0,
        attempts: attempt,
        detail: failureDetail(outcome, request)
      })
    }
    const asked = outcome._tag === "Answered" ? retryAfterMs(outcome.retryAfter, yield* Clock.currentTimeMillis) : undefined
    yield* Effect.sleep(Duration.millis(asked ?? backoffMs(attempt - 1)))
  }
})
