/**
 * Markdown into chunks along heading sections. Each section (the blocks between one heading and the
 * next) is packed into as few chunks as fit the token target; a section too long for one is split
 * between blocks, then between list items or table rows, then at line, sentence and word
 * boundaries; a long run of tiny sections shares chunks instead. Every chunk opens with
 * `{title} > {heading path}`. Frontmatter is read, not chunked;
 * generated regions are cairn's own output and are left out.
 */
import { generatedRegions, isInside } from "../../discovery/GeneratedRegions.ts"
import { basename } from "../../source/Paths.ts"
import type { ChunkOptions } from "./ChunkOptions.ts"
import { type Draft, headerLine } from "./Draft.ts"
import { type Fields, readYaml, text as fieldText } from "./Frontmatter.ts"
import { isLinkList } from "./LinkList.ts"
import { type Block, blocks, headingReader, joinLines, rawHeading } from "./MarkdownBlocks.ts"
import { pack, type Unit } from "./Packer.ts"
import { lineIndex, TextLines } from "../../source/Lines.ts"

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

/** The longest path both `a` and `b` start with; `a` itself when `b` starts with all of it. */
const commonPrefix = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<string> => {
  let same = 0
  while (same < a.length && same < b.length && a[same] === b[same]) same++
  return same === a.length ? a : a.slice(0, same)
}

/**
 * A tiny section as it stands in a merged chunk: its heading line, then its body.
 */
interface Member {
  readonly section: Section
  readonly pieces: ReadonlyArray<{ readonly start: number; readonly end: number; readonly text: string }>
  readonly text: string
  readonly lineEnd: number
  readonly tokens: number
}

/**
 * The file is read in one pass, section by section, and only a section, a short run of tiny ones
 * and the chunk being filled are held: a heading-dense file's memory is then the blocks' numbers,
 * its lines and its chunks.
 */
export const chunkMarkdown = (
  path: string,
  text: string,
  defaults: Fields,
  options: ChunkOptions
): MarkdownNote => {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const lines = new TextLines(source)
  const starts = lines.starts
  const lineOf = lineIndex(source, starts)
  const span = (first: number, last: number): { start: number; end: number } => {
    const line = lines.at(last - 1)!
    return { start: starts[first - 1]!, end: starts[last - 1]! + line.length - (line.endsWith("\r") ? 1 : 0) }
  }
  const all = blocks(lines)
  const opening = all.length > 0 ? all.at(0) : undefined
  const yaml = opening?.kind === "yaml" ? opening : undefined
  const own = yaml === undefined ? {} : readYaml(joinLines(lines, yaml.startLine, yaml.endLine - 1, "\n"))
  const fields: Fields = { ...defaults, ...own }

  const readHeading = headingReader()
  const headingOf = (block: Block) => readHeading(rawHeading(lines, block))
  const declared = fieldText(fields, "title")
  // The same rule as discovery's document title, so a note reads the same in the snapshot and the index.
  const titleBlock = declared !== undefined
    ? undefined
    : (all.find((block) => block.kind === "heading" && block.depth === 1) ??
      all.find((block) => block.kind === "heading" && block.depth <= 3))
  const titleLine = titleBlock?.startLine
  const title = declared ?? (titleBlock === undefined ? undefined : headingOf(titleBlock)) ??
    basename(path).replace(/\.[^.]+$/, "")

  const unitOf = (block: Block): Unit => {
    const whole = span(block.startLine, block.endLine)
    if (block.parts.length > 1) {
      return { ...whole, children: () => block.parts.map(([first, last]) => span(first, last)) }
    }
    const second = lines.at(block.startLine)
    if (block.kind === "paragraph" && block.endLine > block.startLine + 1 && second !== undefined &&
      DELIMITER_ROW.test(second) && (lines.at(block.startLine - 1)!.includes("|") || second.includes("|"))) {
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

  // A run of consecutive tiny sections: short, each keeps its chunk; long, they share chunks up to
  // the target. The first MIN_MERGED_RUN are held until the run proves long; from then on each
  // joins the chunk being filled, whose header is its members' common heading path.
  let run: Array<Member> = []
  let merging = false
  let group: Array<Member> = []
  let groupTokens = 0
  let groupPath: ReadonlyArray<string> = []
  let groupBudget = 0
  const flush = () => {
    const body = group.map((member) => member.text).join("\n\n")
    drafts.push({
      headingPath: groupPath,
      symbols: [],
      body,
      text: `${headerOf(groupPath)}\n${body}`,
      lineStart: group[0]!.section.headingLine!,
      lineEnd: group[group.length - 1]!.lineEnd,
      isLinkList: isLinkList(body, group.every((member) => member.section.relations))
    })
    group = []
    groupTokens = 0
  }
  const fill = (member: Member) => {
    if (group.length > 0) {
      const path = commonPrefix(groupPath, member.section.path)
      const budget = path === groupPath ? groupBudget : budgetOf(headerOf(path))
      if (groupTokens + member.tokens <= budget) {
        group.push(member)
        groupTokens += member.tokens
        groupPath = path
        groupBudget = budget
        return
      }
      flush()
    }
    group.push(member)
    groupTokens = member.tokens
    groupPath = member.section.path
    groupBudget = budgetOf(headerOf(groupPath))
  }
  const join = (member: Member) => {
    if (merging) return fill(member)
    run.push(member)
    if (run.length < MIN_MERGED_RUN) return
    merging = true
    for (const held of run) fill(held)
    run = []
  }
  const settle = () => {
    if (merging) {
      if (group.length > 0) flush()
      merging = false
    }
    // A heading with no body of its own gives no chunk here: it names the sections below it.
    for (const member of run) if (member.pieces.length > 0) emit(member.section, member.pieces)
    run = []
  }
  const take = (section: Section) => {
    // Text before any heading that is only blank, or a generated region: nothing to chunk.
    if (section.units.length === 0 && section.headingLine === undefined) return
    const pieces = section.units.length === 0 ? [] : pack(source, section.units, budgetOf(headerOf(section.path)), options.count)
    const bodyTokens = pieces.length === 0 ? 0 : options.count(pieces[0]!.text)
    if (pieces.length > 1 || bodyTokens >= TINY_SECTION_TOKENS || section.headingLine === undefined) {
      settle()
      emit(section, pieces)
      return
    }
    const heading = lines.at(section.headingLine - 1)!.replace(/\r$/, "")
    // A heading too long for a header line is already the body's first unit.
    const text = pieces.length === 0 ? heading : pieces[0]!.start === starts[section.headingLine - 1] ? pieces[0]!.text : `${heading}\n\n${pieces[0]!.text}`
    const lineEnd = pieces.length === 0 ? section.headingLine : lineOf(pieces[0]!.end - 1)
    join({ section, pieces, text, lineEnd, tokens: options.count(heading) + bodyTokens + 1 })
  }

  const regions = generatedRegions(source)
  const stack: Array<{ readonly depth: number; readonly text: string; readonly inPath: boolean }> = []
  let current: Section = { headingLine: undefined, path: [], relations: false, units: [] }
  for (const block of all) {
    if ((yaml !== undefined && block.startLine === yaml.startLine) || isInside(regions, block.startLine)) continue
    if (block.kind !== "heading") {
      current.units.push(unitOf(block))
      continue
    }
    take(current)
    while (stack.length > 0 && stack[stack.length - 1]!.depth >= block.depth) stack.pop()
    const heading = headingOf(block)
    const isTitle = block.startLine === titleLine
    stack.push({ depth: block.depth, text: heading, inPath: !isTitle })
    current = {
      headingLine: block.startLine,
      path: stack.filter((entry) => entry.inPath).map((entry) => entry.text),
      relations: RELATIONS.test(heading),
      // A heading too long for the header line is kept whole in the body instead.
      units: heading.length > MAX_HEADING_CHARS && !isTitle ? [span(block.startLine, block.endLine)] : []
    }
  }
  take(current)
  settle()
  return { title, fields, drafts }
}
