/**
 * Reading the frontmatter fields chunking uses (title, tags, type, trust and lifecycle markers,
 * dates, author) from a YAML mapping. Anything malformed reads as absent: a bad field costs that
 * field, never the note.
 */
import { parse as parseYaml } from "yaml"
import { instantMillis } from "../../domain/Instant.ts"

export type Fields = Readonly<Record<string, unknown>>

/** The mapping a frontmatter block holds; empty when the YAML is invalid or not a mapping. */
export const readYaml = (text: string): Fields => {
  let data: unknown
  try {
    data = parseYaml(text)
  } catch {
    return {}
  }
  return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Fields) : {}
}

/** A non-empty trimmed string, or a number or boolean written as one. */
export const text = (fields: Fields, key: string): string | undefined => {
  const value = fields[key]
  const written = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined
  const trimmed = written?.trim()
  return trimmed === undefined || trimmed === "" ? undefined : trimmed
}

/** True for YAML `true` and for `true`/`yes` written as strings. */
export const flag = (fields: Fields, key: string): boolean => {
  const value = fields[key]
  if (typeof value === "boolean") return value
  return typeof value === "string" && /^(true|yes)$/i.test(value.trim())
}

/** True when the key is present with any value other than `false`, `no`, null or an empty string. */
export const present = (fields: Fields, key: string): boolean => {
  const value = fields[key]
  if (value === undefined || value === null || value === false) return false
  return typeof value !== "string" || !/^(|false|no)$/i.test(value.trim())
}

/**
 * Milliseconds since the epoch of a date field: an ISO date, a date-time with a zone, a YAML
 * timestamp, or the date part of a date-time written without a zone (read as that UTC day, since a
 * local reading would differ by host). Undefined when absent or unreadable.
 */
export const instant = (fields: Fields, key: string): number | undefined => {
  const value = fields[key]
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime()
  if (typeof value !== "string") return undefined
  const trimmed = value.trim()
  const whole = instantMillis(trimmed)
  if (!Number.isNaN(whole)) return whole
  const day = /^\d{4}-\d{2}-\d{2}/.exec(trimmed)?.[0]
  const dateOnly = day === undefined ? Number.NaN : instantMillis(day)
  return Number.isNaN(dateOnly) ? undefined : dateOnly
}

/** Tags from a list or a comma- or space-separated string, a leading `#` dropped, first occurrence kept. */
export const tags = (fields: Fields): Array<string> => {
  const value = fields["tags"]
  const raw = Array.isArray(value)
    ? value.filter((item): item is string | number => typeof item === "string" || typeof item === "number").map(String)
    : typeof value === "string"
    ? value.split(/[,\s]+/)
    : []
  const out: Array<string> = []
  for (const item of raw) {
    const tag = item.trim().replace(/^#/, "")
    if (tag !== "" && !out.includes(tag)) out.push(tag)
  }
  return out
}
