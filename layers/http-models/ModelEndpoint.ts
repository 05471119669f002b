/**
 * What every configured model shares: the endpoint's URL, with the API's path added when the
 * configuration gives the server's base (`http://localhost:11434`, `https://api.openai.com/v1`),
 * and the key, read from the environment variable the configuration names.
 */
import { Effect } from "effect"
import { InvalidInput } from "../../src/domain/InvalidInput.ts"
import { CONFIG_FILE_NAME } from "./ModelConfig.ts"

/** `url` ending in `path`: added unless it is there already. */
export const endpointWith = (url: string, path: string): string => {
  const parsed = new URL(url)
  const base = parsed.pathname.replace(/\/+$/, "")
  parsed.pathname = base.endsWith(path) ? base : `${base}${path}`
  return parsed.toString()
}

/** The key in `env[keyEnv]`; none when no variable is named; a named variable unset or empty fails. */
export const keyFrom = (
  keyEnv: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  field: string
): Effect.Effect<string | undefined, InvalidInput> => {
  if (keyEnv === undefined) return Effect.succeed(undefined)
  const key = env[keyEnv]
  // The detail names the field, never its value: a key pasted into keyEnv must not be printed.
  if (key === undefined || key === "") {
    return Effect.fail(new InvalidInput({ subject: CONFIG_FILE_NAME, field, detail: "the environment variable it names is not set; export the model's key in it" }))
  }
  // A header cannot carry a control character, and fetch's refusal would quote the key.
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    return Effect.fail(new InvalidInput({ subject: CONFIG_FILE_NAME, field, detail: "the key in the environment variable it names holds a control character (a newline?); remove it" }))
  }
  return Effect.succeed(key)
}
