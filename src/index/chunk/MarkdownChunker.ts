/**
 * Markdown into chunks along heading sections. Each section (the blocks between one heading and the
 * next) is packed into as few chunks as fit the token target; a section too long for one is split
 * between blocks, then between list items or table rows, then at line, sentence and word
 * boundaries; a long run of tiny sections shares chunks instead. Every chunk opens with
 * `{title} > {heading path}`. Frontmatter is read, not chunked;
 * generated regions are cairn's own output and are left out.
 */
import { generatedRegions, isInside } from "../../discovery/GeneratedRegions.ts"
import { basename } from "../../discovery/Paths.ts"
import type { ChunkOptions } from "./ChunkOptions.ts"
import { type Draft, headerLine } from "./Draft.ts"
import { type Fields, readYaml, text as fieldText } from "./Frontmatter.ts"
import { isLinkList } from "./LinkList.ts"
import { type Block, blocks, headingText, rawHeading } from "./MarkdownBlocks.ts"
import { pack, type Unit } from "./Packer.ts"
import { lineIndex } from "../../discovery/Lines.ts"

/** Longest title and heading shown in a header line, in UTF-16 code units. */
export const MAX_TITLE_CHARS = 120
export const MAX_HEADING_CHARS = 80

const RELATIONS = /^relations$/i
// A GFM table's delimiter row: cells of dashes with optional alignment colons.
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

export interface MarkdownNote {
  readonly title: string
  /** Frontmatter fields over the caller's defaults. */
  readonly fields: Fields
  readonly drafts: ReadonlyArray<Draft>
}

/**
 * A section whose body costs fewer tokens than this is tiny: a long run of tiny sections
 * (`MIN_MERGED_RUN`) shares chunks up to the target rather than giving a chunk of a few words each
 * (50,000 short sections gave 46,183 chunks of about 21 characters).
 */
export const TINY_SECTION_TOKENS = 24

/**
 * Fewest consecutive tiny sections that share chunks. A document of short sections written by hand
 * (a runbook's steps, an FAQ) keeps a chunk, and a heading path, per section: at 8, merging cost
 * the sourcegraph-handbook set 0.013 hit@5 and 0.012 CCH_r. A generated or heading-dense file does
 * not turn every heading into a chunk of its own.
 */
export const MIN_MERGED_RUN = 64

interface Section {
  readonly headingLine: number | undefined
  readonly path: ReadonlyArray<string>
  readonly relations: boolean
  readonly units: Array<Unit>
}

/** Offsets of the start of every line, and the line of an offset (discovery's lookup). */
const lineTable = (source: string, lines: ReadonlyArray<string>) => {
  const starts: Array<number> = []
  let offset = 0
  for (const line of lines) {
    starts.push(offset)
    offset += line.length + 1
  }
  return { starts, lineOf: lineIndex(source) }
}

/** The longest path every one of `paths` starts with. */
const commonPrefix = (paths: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<string> => {
  const first = paths[0] ?? []
  let length = first.length
  for (const path of paths) {
    let same = 0
    while (same < length && same < path.length && path[same] === first[same]) same++
    length = same
  }
  return first.slice(0, length)
}

export const chunkMarkdown = (
  path: string,
  text: string,
  defaults: Fields,
  options: ChunkOptions
): MarkdownNote => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = source.split("\n")
  const { starts, lineOf } = lineTable(source, lines)
  const span = (first: number, last: number): { start: number; end: number } => {
    const line = lines[last - 1]!
    return { start: starts[first - 1]!, end: starts[last - 1]! + line.length - (line.endsWith("\r") ? 1 : 0) }
  }
  const all = blocks(lines)
  const yaml = all[0]?.kind === "yaml" ? all[0] : undefined
  const own = yaml === undefined ? {} : readYaml(lines.slice(yaml.startLine, yaml.endLine - 1).join("\n"))
  const fields: Fields = { ...defaults, ...own }

  const headings = new Map<Block, string>()
  // Repeated headings (`Status`, `Example`) are read once.
  const read = new Map<string, string>()
  for (const block of all) {
    if (block.kind !== "heading") continue
    const raw = rawHeading(lines, block)
    const words = read.get(raw) ?? headingText(raw)
    read.set(raw, words)
    headings.set(block, words)
  }
  const declared = fieldText(fields, "title")
  // The same rule as discovery's document title, so a note reads the same in the snapshot and the index.
  const titleBlock = declared !== undefined
    ? undefined
    : (all.find((block) => block.kind === "heading" && block.depth === 1) ??
      all.find((block) => block.kind === "heading" && block.depth <= 3))
  const title = declared ?? (titleBlock === undefined ? undefined : headings.get(titleBlock)) ??
    basename(path).replace(/\.[^.]+$/, "")

  const unitOf = (block: Block): Unit => {
    const whole = span(block.startLine, block.endLine)
    if (block.parts.length > 1) {
      return { ...whole, children: () => block.parts.map(([first, last]) => span(first, last)) }
    }
    const second = lines[block.startLine]
    if (block.kind === "paragraph" && block.endLine > block.startLine + 1 && second !== undefined &&
      DELIMITER_ROW.test(second) && (lines[block.startLine - 1]!.includes("|") || second.includes("|"))) {
      const header = source.slice(whole.start, span(block.startLine + 1, block.startLine + 1).end)
      const rows = (): Array<Unit> => {
        const out: Array<Unit> = []
        for (let line = block.startLine + 2; line <= block.endLine; line++) out.push(span(line, line))
        return out
      }
      return { ...whole, children: rows, repeat: header }
    }
    return whole
  }

  const regions = generatedRegions(source)
  const sections: Array<Section> = []
  const stack: Array<{ readonly depth: number; readonly text: string; readonly inPath: boolean }> = []
  let current: Section = { headingLine: undefined, path: [], relations: false, units: [] }
  for (const block of all) {
    if (block === yaml || isInside(regions, block.startLine)) continue
    if (block.kind !== "heading") {
      current.units.push(unitOf(block))
      continue
    }
    sections.push(current)
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= block.depth) stack.pop()
    const heading = headings.get(block)!
    stack.push({ depth: block.depth, text: heading, inPath: block !== titleBlock })
    current = {
      headingLine: block.startLine,
      path: stack.filter((entry) => entry.inPath).map((entry) => entry.text),
      relations: RELATIONS.test(heading),
      // A heading too long for the header line is kept whole in the body instead.
      units: heading.length > MAX_HEADING_CHARS && block !== titleBlock ? [span(block.startLine, block.endLine)] : []
    }
  }
  sections.push(current)

  const drafts: Array<Draft> = []
  const headerOf = (path: ReadonlyArray<string>) => headerLine(title, path, MAX_TITLE_CHARS, MAX_HEADING_CHARS)
  const budgetOf = (header: string) => Math.max(options.targetTokens - options.count(`${header}\n`), Math.floor(options.targetTokens / 4))
  const emit = (section: Section, pieces: ReadonlyArray<{ readonly start: number; readonly end: number; readonly text: string }>) => {
    const header = headerOf(section.path)
    pieces.forEach((piece, i) => {
      drafts.push({
        headingPath: section.path,
        symbols: [],
        body: piece.text,
        text: `${header}\n${piece.text}`,
        lineStart: i === 0 && section.headingLine !== undefined ? section.headingLine : lineOf(piece.start),
        lineEnd: lineOf(piece.end - 1),
        isLinkList: isLinkList(piece.text, section.relations)
      })
    })
  }
  /** A tiny section as it stands in a merged chunk: its heading line, then its body. */
  interface Member {
    readonly section: Section
    readonly pieces: ReadonlyArray<{ readonly start: number; readonly end: number; readonly text: string }>
    readonly text: string
    readonly lineEnd: number
    readonly tokens: number
  }
  const merged = (members: ReadonlyArray<Member>) => {
    const path = commonPrefix(members.map((member) => member.section.path))
    const body = members.map((member) => member.text).join("\n\n")
    drafts.push({
      headingPath: path,
      symbols: [],
      body,
      text: `${headerOf(path)}\n${body}`,
      lineStart: members[0]!.section.headingLine!,
      lineEnd: members[members.length - 1]!.lineEnd,
      isLinkList: isLinkList(body, members.every((member) => member.section.relations))
    })
  }
  // A run of consecutive tiny sections: short, each keeps its chunk; long, they share chunks up to the target.
  let run: Array<Member> = []
  const settle = () => {
    if (run.length < MIN_MERGED_RUN) {
      // A heading with no body of its own gives no chunk here: it names the sections below it.
      for (const member of run) if (member.pieces.length > 0) emit(member.section, member.pieces)
    } else {
      let group: Array<Member> = []
      let tokens = 0
      const budget = budgetOf(headerOf(commonPrefix(run.map((member) => member.section.path))))
      for (const member of run) {
        if (group.length > 0 && tokens + member.tokens > budget) {
          merged(group)
          group = []
          tokens = 0
        }
        group.push(member)
        tokens += member.tokens
      }
      if (group.length > 0) merged(group)
    }
    run = []
  }
  for (const section of sections) {
    // Text before any heading that is only blank, or a generated region: nothing to chunk.
    if (section.units.length === 0 && section.headingLine === undefined) continue
    const pieces = section.units.length === 0 ? [] : pack(source, section.units, budgetOf(headerOf(section.path)), options.count)
    const bodyTokens = pieces.length === 0 ? 0 : options.count(pieces[0]!.text)
    if (pieces.length > 1 || bodyTokens >= TINY_SECTION_TOKENS || section.headingLine === undefined) {
      settle()
      emit(section, pieces)
      continue
    }
    const heading = lines[section.headingLine - 1]!.replace(/\r$/, "")
    // A heading too long for a header line is already the body's first unit.
    const text = pieces.length === 0 ? heading : pieces[0]!.start === starts[section.headingLine - 1] ? pieces[0]!.text : `${heading}\n\n${pieces[0]!.text}`
    const lineEnd = pieces.length === 0 ? section.headingLine : lineOf(pieces[0]!.end - 1)
    run.push({ section, pieces, text, lineEnd, tokens: options.count(heading) + bodyTokens + 1 })
  }
  settle()
  return { title, fields, drafts }
}
