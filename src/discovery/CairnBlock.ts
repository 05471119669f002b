/**
 * The fenced ```cairn block: an author's declaration of what a document covers and how it relates to
 * other things. It is real YAML validated by a Schema, so every violation names its field; a block
 * YAML cannot read at all is read line by line instead, with one diagnostic per line not understood.
 *
 * ```cairn
 * covers:
 *   - src/retrieval
 * relations:
 *   - kind: implements
 *     target: docs/adr/001-ranking.md
 * ```
 */
import { Result, Schema, SchemaIssue } from "effect"
import { parse as parseYaml } from "yaml"
import type { DocumentReference, Note } from "./FileAnalysis.ts"

const CairnBlockSchema = Schema.Struct({
  covers: Schema.optionalKey(Schema.Array(Schema.String)),
  relations: Schema.optionalKey(Schema.Array(Schema.Struct({ kind: Schema.NonEmptyString, target: Schema.String })))
})

const decode = Schema.decodeUnknownResult(CairnBlockSchema, { onExcessProperty: "error", errors: "all" })
const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

export interface BlockReading {
  readonly references: ReadonlyArray<DocumentReference>
  readonly notes: ReadonlyArray<Note>
}

const unquote = (value: string): string => value.trim().replace(/^(['"])(.*)\1$/, "$2")

/**
 * `fenceLine` is the line of the opening fence; the block's first line is the one after it. Each
 * reference takes the first line of the block that mentions its target.
 */
export const readCairnBlock = (value: string, fenceLine: number): BlockReading => {
  const lines = value.split("\n")
  const lineOf = (target: string): number => {
    const index = lines.findIndex((line) => line.includes(target))
    return fenceLine + 1 + Math.max(index, 0)
  }
  let parsed: unknown
  try {
    parsed = parseYaml(value)
  } catch (error) {
    return scanLines(lines, fenceLine, error instanceof Error ? error.message.split("\n")[0]! : String(error))
  }
  const decoded = decode(parsed ?? {})
  if (Result.isFailure(decoded)) {
    const problems = formatter(decoded.failure.issue).issues.map((issue) =>
      `${["cairn", ...(issue.path ?? []).map(String)].join(".")}: ${issue.message}`
    )
    return { references: [], notes: [{ status: "partial", reason: `cairn block at line ${fenceLine}: ${problems.join("; ")}` }] }
  }
  const block = decoded.success
  const references: Array<DocumentReference> = []
  for (const target of block.covers ?? []) references.push({ kind: "covers", target, line: lineOf(target) })
  for (const relation of block.relations ?? []) {
    references.push({ kind: "verb", verb: relation.kind, target: relation.target, line: lineOf(relation.target) })
  }
  return { references, notes: [] }
}

/** The fallback for a block YAML rejects: `covers:` lists, inline `[a, b]` lists, `kind:`/`target:` pairs. */
const scanLines = (lines: ReadonlyArray<string>, fenceLine: number, yamlError: string): BlockReading => {
  const references: Array<DocumentReference> = []
  const unread: Array<number> = []
  let section: "covers" | "relations" | undefined
  let kind: string | undefined
  lines.forEach((raw, index) => {
    const line = fenceLine + 1 + index
    const text = raw.trim()
    if (text === "" || text.startsWith("#")) return
    const header = /^(covers|relations):\s*(.*)$/.exec(text)
    if (header !== null) {
      section = header[1] as "covers" | "relations"
      const inline = /^\[(.*)\]$/.exec(header[2]!)
      if (section === "covers" && inline !== null) {
        for (const item of inline[1]!.split(",").map(unquote).filter((item) => item !== "")) {
          references.push({ kind: "covers", target: item, line })
        }
      } else if (header[2] !== "") {
        unread.push(line)
      }
      return
    }
    const item = /^-\s*(.*)$/.exec(text)
    const pair = /^(?:-\s*)?(kind|target):\s*(.+)$/.exec(text)
    if (section === "relations" && pair !== null) {
      if (pair[1] === "kind") kind = unquote(pair[2]!)
      else if (kind !== undefined) {
        references.push({ kind: "verb", verb: kind, target: unquote(pair[2]!), line })
        kind = undefined
      } else unread.push(line)
      return
    }
    if (section === "covers" && item !== null && item[1] !== "") {
      references.push({ kind: "covers", target: unquote(item[1]!), line })
      return
    }
    unread.push(line)
  })
  const tail = unread.length === 0 ? "" : `; lines not understood: ${unread.join(", ")}`
  return {
    references,
    notes: [{
      status: "partial",
      reason: `cairn block at line ${fenceLine} is not valid YAML (${yamlError}); read line by line: ${references.length} entries${tail}`
    }]
  }
}
