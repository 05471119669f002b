/**
 * Turns a document's references into relations against the scanned repository:
 * `links-to` (a relative link or wikilink to a scanned document), `mentions` (inline code or link
 * text equal to a scanned path or package name, or a link to a module or area), `mentions-symbol`
 * (inline code equal to a name exactly one module declares), `covers` (a cairn block), and the
 * verbs of a Relations section. A path-shaped reference that names nothing may still resolve as a
 * near miss with `fuzzy` confidence; anything else is kept as an `unresolved:` endpoint.
 */
import type { Evidence, Relation, RelationStatus } from "../domain/Snapshot.ts"
import { evidenceList } from "./Canonical.ts"
import type { DocumentReference, Note } from "./FileAnalysis.ts"
import { lazy } from "./Lazy.ts"
import type { NearMissIndex } from "./NearMiss.ts"
import { makeIndex } from "./NearMiss.ts"
import { basename, dirname, extname, resolve } from "../source/Paths.ts"
import { compareIds } from "../domain/Ranking.ts"

/** References one document may turn into relations; an index page's 65th link is not knowledge. */
export const MAX_DOCUMENT_REFERENCES = 64

export interface ResolutionContext {
  readonly modules: ReadonlySet<string>
  readonly documents: ReadonlySet<string>
  readonly areas: ReadonlySet<string>
  /** Package name to package id. */
  readonly packages: ReadonlyMap<string, string>
  /** Exported name to the modules declaring it, sorted (only looked up, so it may be built on demand). */
  readonly symbols: Pick<ReadonlyMap<string, ReadonlyArray<string>>, "get">
  /** Lower-cased file name without extension to document paths, sorted, for wikilinks. */
  readonly documentsByStem: ReadonlyMap<string, ReadonlyArray<string>>
  /** Over every module, document and area path. */
  readonly nearMiss: NearMissIndex
}

export interface DocumentResolution {
  readonly relations: ReadonlyArray<Relation>
  readonly evidenceTruncated: boolean
  readonly notes: ReadonlyArray<Note>
}

const ANALYZED_EXTENSIONS = new Set([".md", ".mdx", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"])
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const ENTITY_ID = /^(module|document|package|area|external):(.+)$/

interface Target {
  readonly kind: string
  readonly to: string
  readonly confidence: "exact" | "fuzzy"
}

/** Worth a near-miss attempt: one token, shaped like a path to something the scan analyses. */
const isPathShaped = (value: string): boolean =>
  value.length <= 200 && !/\s/.test(value) && (value.includes("/") || ANALYZED_EXTENSIONS.has(extname(value))) &&
  (extname(value) === "" || ANALYZED_EXTENSIONS.has(extname(value)))

const stripPath = (value: string): string => value.replace(/^\.\//, "").replace(/\/+$/, "")

/** What a scan knows of its tree when it resolves documents. */
export interface ResolutionTree {
  readonly modules: ReadonlySet<string>
  /** Document paths, in listing order. */
  readonly documents: ReadonlyArray<string>
  readonly areas: ReadonlySet<string>
  readonly packages: ReadonlyArray<{ readonly id: string; readonly name: string | null }>
  /** Exported name to the modules declaring it; asked for once, on the first symbol looked up. */
  readonly symbols: () => ReadonlyMap<string, ReadonlyArray<string>>
}

/**
 * The resolver of a tree, made on its first use, and its near-miss index and symbol table on
 * theirs: a scan that parses no document, or whose documents name no symbol, builds none of them.
 */
export const treeResolver = (tree: ResolutionTree): (path: string, references: ReadonlyArray<DocumentReference>) => DocumentResolution => {
  const resolver = lazy(() => {
    const byStem = new Map<string, Array<string>>()
    for (const path of [...tree.documents].sort(compareIds)) {
      const stem = basename(path).replace(/\.mdx?$/i, "").toLowerCase()
      const list = byStem.get(stem)
      if (list === undefined) byStem.set(stem, [path])
      else list.push(path)
    }
    const nearMiss = lazy(() => makeIndex([...tree.modules, ...tree.documents, ...tree.areas]))
    const symbols = lazy(tree.symbols)
    return makeDocumentResolver({
      modules: tree.modules,
      documents: new Set(tree.documents),
      areas: tree.areas,
      packages: new Map(tree.packages.filter((p) => p.name !== null && p.id === `package:${p.name}`).map((p) => [p.name!, p.id])),
      symbols: { get: (name) => symbols().get(name) },
      documentsByStem: byStem,
      nearMiss: { above: (query) => nearMiss().above(query), match: (query) => nearMiss().match(query) }
    })
  })
  return (path, references) => resolver()(path, references)
}

export const makeDocumentResolver = (context: ResolutionContext) => {
  const { areas, documents, modules } = context

  /** A root-relative path that is an entity: the relation kind a link to it makes, and its id. */
  const byPath = (path: string, linkKind: string): Target | undefined => {
    if (documents.has(path)) return { kind: linkKind, to: `document:${path}`, confidence: "exact" }
    if (modules.has(path)) return { kind: "mentions", to: `module:${path}`, confidence: "exact" }
    if (areas.has(path)) return { kind: "mentions", to: `area:${path}`, confidence: "exact" }
    return undefined
  }

  const nearMiss = (path: string, linkKind: string): Target | undefined => {
    if (!isPathShaped(path)) return undefined
    const match = context.nearMiss.match(path)
    const target = match === undefined ? undefined : byPath(match, linkKind)
    return target === undefined ? undefined : { ...target, confidence: "fuzzy" }
  }

  const wikilink = (from: string, name: string, linkKind: string): Target | undefined => {
    const candidates = [name, `${name}.md`, `${name}.mdx`]
    for (const candidate of candidates) {
      const rooted = stripPath(candidate)
      const found = byPath(rooted, linkKind) ?? (() => {
        const relative = resolve(dirname(from), candidate)
        return relative === undefined ? undefined : byPath(relative, linkKind)
      })()
      if (found !== undefined) return found
    }
    const stem = basename(name).replace(/\.mdx?$/i, "").toLowerCase()
    const byStem = context.documentsByStem.get(stem)
    if (byStem !== undefined && byStem.length === 1) {
      return { kind: linkKind, to: `document:${byStem[0]}`, confidence: "exact" }
    }
    return name.includes("/") ? nearMiss(stripPath(name), linkKind) : undefined
  }

  /** Inline code and link text: a path, then a package name. */
  const named = (value: string): Target | undefined => {
    const path = stripPath(value)
    const found = path === "" ? undefined : byPath(path, "mentions")
    if (found !== undefined) return { ...found, kind: "mentions" }
    const packageId = context.packages.get(value)
    return packageId === undefined ? undefined : { kind: "mentions", to: packageId, confidence: "exact" }
  }

  /** A declared target (cairn block, relations list): an entity id, a path, a package, a wikilink name. */
  const declared = (from: string, value: string, kind: string): Target => {
    const id = ENTITY_ID.exec(value)
    if (id !== null) {
      const [, entityKind, rest] = id
      const exists = entityKind === "external" ||
        (entityKind === "module" && modules.has(rest!)) ||
        (entityKind === "document" && documents.has(rest!)) ||
        (entityKind === "area" && areas.has(rest!)) ||
        (entityKind === "package" && [...context.packages.values()].includes(value))
      return { kind, to: exists ? value : `unresolved:${value}`, confidence: "exact" }
    }
    const found = byPath(stripPath(value), kind) ?? wikilink(from, value, kind)
    if (found !== undefined) return { ...found, kind }
    const packageId = context.packages.get(value)
    return { kind, to: packageId ?? `unresolved:${value}`, confidence: "exact" }
  }

  return (path: string, references: ReadonlyArray<DocumentReference>): DocumentResolution => {
    const from = `document:${path}`
    const grouped = new Map<string, { target: Target; status: RelationStatus; evidence: Array<Evidence> }>()
    const ambiguous: Array<string> = []
    let distinct = 0
    let dropped = 0
    const add = (target: Target | undefined, status: RelationStatus, reference: DocumentReference) => {
      if (target === undefined || target.to === from) return
      const key = `${target.kind}\u0000${target.to}`
      let group = grouped.get(key)
      if (group === undefined) {
        distinct++
        if (grouped.size >= MAX_DOCUMENT_REFERENCES) {
          dropped++
          return
        }
        group = { target, status, evidence: [] }
        grouped.set(key, group)
      }
      // Order-free merging: any exact sighting makes the relation exact, any declaration declared.
      if (target.confidence === "exact") group.target = target
      if (status === "declared") group.status = "declared"
      group.evidence.push({ path, line: reference.line, text: reference.target })
    }
    for (const reference of references) {
      switch (reference.kind) {
        case "link": {
          const bare = reference.target.replace(/[#?].*$/, "")
          if (bare === "") break
          let decoded = bare
          try {
            decoded = decodeURI(bare)
          } catch {
            // A malformed escape is kept as written.
          }
          const target = resolve(dirname(path), decoded)
          if (target === undefined) {
            add({ kind: "links-to", to: `unresolved:${decoded}`, confidence: "exact" }, "observed", reference)
            break
          }
          add(
            byPath(target, "links-to") ?? nearMiss(target, "links-to") ??
              { kind: "links-to", to: `unresolved:${target}`, confidence: "exact" },
            "observed",
            reference
          )
          break
        }
        case "wikilink":
          add(
            wikilink(path, reference.target, "links-to") ??
              { kind: "links-to", to: `unresolved:${reference.target}`, confidence: "exact" },
            "observed",
            reference
          )
          break
        case "link-text":
          add(named(reference.target), "observed", reference)
          break
        case "code": {
          const found = named(reference.target)
          if (found !== undefined) {
            add(found, "observed", reference)
            break
          }
          const symbol = reference.target.replace(/\(\)$/, "")
          if (IDENTIFIER.test(symbol) && symbol !== "default") {
            const declarers = context.symbols.get(symbol)
            if (declarers !== undefined && declarers.length === 1) {
              add({ kind: "mentions-symbol", to: `module:${declarers[0]}`, confidence: "exact" }, "observed", reference)
            } else if (declarers !== undefined && declarers.length > 1) {
              ambiguous.push(`\`${symbol}\` line ${reference.line} (${declarers.length} modules)`)
            }
            break
          }
          add(nearMiss(stripPath(reference.target), "mentions"), "observed", reference)
          break
        }
        case "covers":
          add(declared(path, reference.target, "covers"), "declared", reference)
          break
        case "verb":
          add(declared(path, reference.target, reference.verb ?? "relates_to"), "declared", reference)
          break
      }
    }
    const notes: Array<Note> = []
    if (ambiguous.length > 0) {
      notes.push({ status: "partial", reason: `ambiguous symbols, declared by several modules, not linked: ${ambiguous.join(", ")}` })
    }
    if (dropped > 0) {
      notes.push({
        status: "partial",
        reason: `${distinct} distinct references; kept the first ${MAX_DOCUMENT_REFERENCES} in document order`
      })
    }
    const relations: Array<Relation> = [...grouped.values()].map((group) => ({
      kind: group.target.kind,
      from,
      to: group.target.to,
      status: group.status,
      confidence: group.target.confidence,
      evidence: evidenceList(group.evidence)
    }))
    return { relations, evidenceTruncated: dropped > 0, notes }
  }
}
