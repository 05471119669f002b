/**
 * The symbol leg's table: every name a code chunk declares, with its kind, whether it is exported
 * and the line it is declared on, and the question's terms matched against the name's parts
 * (camelCase, PascalCase, snake_case and digit runs split, each part stemmed as the lexical leg
 * stems). A name of two or more parts the question spells out whole (`packClaims`, `BUDGET_TOKENS`),
 * or any name it writes as code (`` `fuse` ``), is an exact match and ranks first; then names two of
 * whose parts the question names, or all of them; then names a longer question word begins or ends.
 * A one-part name written as a plain word (`token`, `path`) is a word, not a name: the lexical leg
 * already has it, and as a symbol it would put every such variable first.
 *
 * Kinds and exported-ness are read from the declaring line of the chunk's text, which every
 * language the chunker reads spells with a keyword (`export function`, `pub fn`, `def`, `func`);
 * a Go name is exported by its capital. Members of a class are read from its lines as methods.
 */
import type { Chunk, ChunkId } from "../domain/Chunk.ts"
import type { Declared, SymbolKind, SymbolMatch, SymbolMatchKind } from "../domain/SymbolMatch.ts"
import { byScoreThen, compareIds } from "../domain/Ranking.ts"
import type { FilterSubject } from "../ports/RetrievalFilter.ts"
import { terms } from "../text/Words.ts"

/** What the table reads of a chunk. */
export type SymbolSource = FilterSubject & Pick<Chunk, "id" | "symbols" | "text" | "lineStart">

interface Entry extends Declared {
  readonly lowered: string
  /** Distinct analysed parts of the name. */
  readonly parts: ReadonlyArray<string>
  readonly subject: FilterSubject
}

/** Score descending, then path; a search breaks what ties by line, then name. */
const byScoreThenPath = byScoreThen((match: SymbolMatch) => match.path)

export interface SymbolTable {
  readonly size: number
  /** Declarations matching `text`, best first, at most `limit`, each chunk passing `passes`. */
  readonly search: (
    text: string,
    limit: number,
    passes: (subject: FilterSubject) => boolean,
    stopwords: ReadonlySet<string>
  ) => Array<SymbolMatch>
}

/** `parseHTTPRequest2` → `parse HTTP Request 2`: one word per identifier part. */
export const splitIdentifier = (name: string): string =>
  name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()

/** The analysed parts of a name, each once, in order. */
export const identifierParts = (name: string): Array<string> => [...new Set(terms(splitIdentifier(name)))]

const KEYWORD_KINDS: Readonly<Record<string, SymbolKind>> = {
  function: "function", "function*": "function", def: "function", func: "function", fn: "function", fun: "function", sub: "function",
  class: "class", record: "class", object: "class",
  interface: "interface", protocol: "interface",
  type: "type", typealias: "type",
  enum: "enum",
  namespace: "namespace", module: "namespace", mod: "namespace", package: "namespace",
  const: "variable", let: "variable", var: "variable", val: "variable", static: "variable",
  struct: "struct", union: "struct",
  trait: "trait",
  impl: "impl",
  macro_rules: "macro", macro: "macro"
}

// `export default async function name`, `pub(crate) fn name`, `public static class Name`, `def name`.
const DECLARATION_RE = /^\s*(?:(export|pub(?:\([^)]*\))?|public)\s+)?(?:(?:default|declare|abstract|async|static|final|sealed|private|protected|internal|open|data|unsafe|extern|inline|const|override|partial)\s+)*(function\*?|def|func|fn|fun|sub|class|record|object|interface|protocol|type|typealias|enum|namespace|module|mod|package|const|let|var|val|static|struct|union|trait|impl|macro_rules!?|macro)\s+(?:\([^)]*\)\s*)?([\p{L}_$][\p{L}\p{N}_$]*)/u
// A member of a class body: `async name(`, `static get name(`, `private name<T>(`, `def name(`.
const METHOD_RE = /^\s+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set|def|func|fn|fun)\s+)*\*?(#?[\p{L}_$][\p{L}\p{N}_$]*)\s*(?:<[^>(]*>)?\s*\(/u
const NOT_METHODS: ReadonlySet<string> = new Set([
  "if", "for", "while", "switch", "catch", "return", "function", "super", "this", "await", "typeof", "new", "else", "do", "try", "with", "elif", "print"
])
/** Lines of a chunk read for its declarations' own lines; a declaration begins its chunk. */
const HEAD_LINES = 40

const exportedBy = (keyword: string | undefined, name: string, path: string): boolean => {
  if (keyword !== undefined) return true
  if (path.endsWith(".go")) return /^\p{Lu}/u.test(name)
  if (path.endsWith(".py")) return !name.startsWith("_")
  return false
}

/** Up to `count` lines of `text` after its first. */
const headLines = (text: string, count: number): Array<string> => {
  const out: Array<string> = []
  let at = text.indexOf("\n")
  while (at !== -1 && out.length < count) {
    const next = text.indexOf("\n", at + 1)
    out.push(text.slice(at + 1, next === -1 ? text.length : next))
    at = next
  }
  return out
}

/** The declarations of one chunk: its own names, and the methods of a class it declares. */
export const declarationsOf = (source: SymbolSource): Array<Declared> => {
  if (source.symbols.length === 0) return []
  const wanted = new Set(source.symbols)
  const found = new Map<string, Declared>()
  // The first line is the chunk's `{path} > {symbols}` header, not source. Only a class's body is
  // read past the head: splitting every chunk whole was most of building a large repository's table.
  let lines = headLines(source.text, HEAD_LINES)
  const classes: Array<Declared> = []
  for (let i = 0; i < lines.length && found.size < wanted.size; i++) {
    const line = lines[i]!
    if (!source.symbols.some((name) => line.includes(name))) continue
    const hit = DECLARATION_RE.exec(line)
    if (hit === null) continue
    const name = hit[3]!
    if (!wanted.has(name) || found.has(name)) continue
    const keyword = hit[2]!.replace(/!$/, "")
    const kind = KEYWORD_KINDS[keyword] ?? "declaration"
    const declared: Declared = {
      name,
      kind,
      exported: exportedBy(hit[1], name, source.path),
      chunk: source.id,
      path: source.path,
      line: source.lineStart + i
    }
    found.set(name, declared)
    if (kind === "class" || kind === "impl" || kind === "trait" || kind === "interface") classes.push(declared)
  }
  const out: Array<Declared> = []
  for (const name of source.symbols) {
    out.push(found.get(name) ?? { name, kind: "declaration", exported: false, chunk: source.id, path: source.path, line: source.lineStart })
  }
  if (classes.length === 1) {
    const owner = classes[0]!
    lines = source.text.split("\n").slice(1)
    const seen = new Set(out.map((declared) => declared.name))
    for (let i = owner.line - source.lineStart + 1; i < lines.length; i++) {
      const hit = METHOD_RE.exec(lines[i]!)
      if (hit === null) continue
      const name = hit[1]!
      if (NOT_METHODS.has(name) || seen.has(name)) continue
      seen.add(name)
      const hidden = name.startsWith("#") || name.startsWith("_") || /^\s+private\b/.test(lines[i]!)
      out.push({ name: name.replace(/^#/, ""), kind: "method", exported: owner.exported && !hidden, chunk: source.id, path: source.path, line: source.lineStart + i })
    }
  }
  return out
}

const KIND_PRIOR: Readonly<Partial<Record<SymbolKind, number>>> = {
  function: 0.1, class: 0.1, interface: 0.08, type: 0.08, enum: 0.08, struct: 0.08, trait: 0.08, method: 0.06, namespace: 0.04
}

const IDENTIFIER_RE = /[\p{L}_$][\p{L}\p{N}_$]*/gu

/** Identifier-shaped runs of a question, folded: what may spell a name of several parts. */
const spelledNames = (text: string): Set<string> => {
  const out = new Set<string>()
  for (const match of text.matchAll(IDENTIFIER_RE)) if (match[0].length >= 3) out.add(match[0].toLowerCase())
  return out
}

/** Names a question writes as code, between backticks or followed by `()`, folded. */
const codeNames = (text: string): Set<string> => {
  const out = new Set<string>()
  for (const match of text.matchAll(/`([^`]{1,200})`|([\p{L}_$][\p{L}\p{N}_$]*)\(\)/gu)) {
    for (const name of (match[1] ?? match[2]!).matchAll(IDENTIFIER_RE)) out.add(name[0].toLowerCase())
  }
  return out
}

/** The table of `sources`' declarations. */
export const buildSymbolTable = (sources: Iterable<SymbolSource>): SymbolTable => {
  // A declaration split over several chunks names itself in each; it is kept once, at the chunk
  // holding its declaring line (the first, when none does).
  const kept = new Map<string, Entry>()
  for (const source of sources) {
    // What the filter reads, apart from the text, so the table does not keep every chunk's text alive.
    const subject: FilterSubject = {
      path: source.path,
      noteType: source.noteType,
      status: source.status,
      provenance: { state: source.provenance.state, createdAt: source.provenance.createdAt }
    }
    for (const declared of declarationsOf(source)) {
      const key = `${declared.path}\u0000${declared.name}`
      const known = kept.get(key)
      const entry: Entry = { ...declared, lowered: declared.name.toLowerCase(), parts: identifierParts(declared.name), subject }
      if (known === undefined || (known.kind === "declaration" && entry.kind !== "declaration") ||
        (known.kind === entry.kind && entry.line < known.line)) kept.set(key, entry)
    }
  }
  const entries = [...kept.values()]
  // Chunk ids are unique and declarations within one chunk are in line order: one canonical order.
  entries.sort((a, b) => compareIds(a.chunk, b.chunk) || a.line - b.line || compareIds(a.name, b.name))
  const byName = new Map<string, Array<number>>()
  const byPart = new Map<string, Array<number>>()
  entries.forEach((entry, i) => {
    const named = byName.get(entry.lowered)
    if (named === undefined) byName.set(entry.lowered, [i])
    else named.push(i)
    for (const part of entry.parts) {
      const list = byPart.get(part)
      if (list === undefined) byPart.set(part, [i])
      else list.push(i)
    }
  })
  const partKeys = [...byPart.keys()].sort()

  const search: SymbolTable["search"] = (text, limit, passes, stopwords) => {
    if (limit <= 0 || entries.length === 0) return []
    const spelled = spelledNames(text)
    const written = codeNames(text)
    const wanted = [...new Set(terms(text))].filter((term) => !stopwords.has(term))
    const wantedSet = new Set(wanted)
    const exact = new Set<number>()
    for (const name of spelled) {
      for (const i of byName.get(name) ?? []) if (entries[i]!.parts.length >= 2 || written.has(name)) exact.add(i)
    }
    // Per declaration: parts the question names, and parts a question word begins or ends (`token` in `tokens`).
    const matched = new Map<number, number>()
    const prefixed = new Map<number, number>()
    for (const term of wantedSet) for (const i of byPart.get(term) ?? []) matched.set(i, (matched.get(i) ?? 0) + 1)
    for (const term of wantedSet) {
      if (term.length < 4) continue
      for (const part of prefixParts(partKeys, term)) {
        if (wantedSet.has(part)) continue
        for (const i of byPart.get(part)!) prefixed.set(i, (prefixed.get(i) ?? 0) + 1)
      }
    }
    const candidates = new Set<number>([...exact, ...matched.keys(), ...prefixed.keys()])
    const scored: Array<SymbolMatch> = []
    for (const i of candidates) {
      const entry = entries[i]!
      const whole = exact.has(i)
      const named = matched.get(i) ?? 0
      const begun = Math.min(prefixed.get(i) ?? 0, entry.parts.length - named)
      const covered = (named + begun) / Math.max(1, entry.parts.length)
      if (!whole && (named === 0 || entry.parts.length < 2 || (named + begun < 2 && covered < 1))) continue
      if (!passes(entry.subject)) continue
      const score = (whole ? 10 : 0) + named + 0.5 * begun + covered + (entry.exported ? 0.25 : 0) + (KIND_PRIOR[entry.kind] ?? 0)
      scored.push({
        name: entry.name,
        kind: entry.kind,
        exported: entry.exported,
        chunk: entry.chunk,
        path: entry.path,
        line: entry.line,
        match: whole ? "exact" : begun > 0 && named + begun > named ? "prefix" : "parts",
        score
      })
    }
    scored.sort((a, b) => byScoreThenPath(a, b) || a.line - b.line || compareIds(a.name, b.name))
    return scored.slice(0, limit)
  }
  return { size: entries.length, search }
}

/** Parts (sorted `keys`) that `term` begins, or that begin `term`, other than `term` itself. */
const prefixParts = (keys: ReadonlyArray<string>, term: string): Array<string> => {
  const out: Array<string> = []
  // Parts `term` begins: the run of keys starting with it.
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! < term) lo = mid + 1
    else hi = mid
  }
  for (let i = lo; i < keys.length && keys[i]!.startsWith(term); i++) if (keys[i] !== term) out.push(keys[i]!)
  // Parts that begin `term`, four characters or longer: each proper prefix looked up.
  for (let n = 4; n < term.length; n++) {
    const prefix = term.slice(0, n)
    let a = 0
    let b = keys.length
    while (a < b) {
      const mid = (a + b) >>> 1
      if (keys[mid]! < prefix) a = mid + 1
      else b = mid
    }
    if (keys[a] === prefix) out.push(prefix)
  }
  return out
}
