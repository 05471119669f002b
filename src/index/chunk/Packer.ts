/**
 * Greedy packing of source spans into pieces that fit a token budget. Units are taken in order and
 * grouped while their summed cost fits; a unit too big alone is refined into its children (list
 * items, table rows, body statements) or, without children, into lines, then sentences, then words,
 * then byte windows. Every unit and every emitted piece is counted once per level, so the cost stays
 * linear in the text whatever the counter.
 */
import { lineSpans, sentenceSpans, type Span, windowSpans, wordSpans } from "./TextSplit.ts"
import { utf8Length } from "../../text/TokenCount.ts"

/** A span to pack. */
export interface Unit extends Span {
  /** Finer units inside this one, in order, used when it does not fit alone. */
  readonly children?: (() => ReadonlyArray<Unit>) | undefined
  /**
   * The source text before the first child, repeated at the head of every piece when this unit is
   * split (a table's header rows), so each piece can be read alone.
   */
  readonly repeat?: string | undefined
}

/** A packed stretch: the offsets of its first and last unit, and its text. */
export interface Piece extends Span {
  readonly text: string
}

export type Count = (text: string) => number

const BLANK = /^\s*$/

/** What separates two units in a piece: the source between them when it is only whitespace, else a line break. */
const gapBetween = (source: string, a: Span, b: Span): string => {
  const gap = source.slice(a.end, b.start)
  return BLANK.test(gap) ? gap : "\n"
}

const joinText = (source: string, units: ReadonlyArray<Unit>): string => {
  let text = source.slice(units[0]!.start, units[0]!.end)
  for (let i = 1; i < units.length; i++) {
    text += gapBetween(source, units[i - 1]!, units[i]!) + source.slice(units[i]!.start, units[i]!.end)
  }
  return text
}

/** Stretches the first and last child to the parent's edges, so a split loses no text (a signature, a closing brace). */
const cover = (children: ReadonlyArray<Span>, parent: Span): Array<Unit> =>
  children.map((child, i) => ({
    ...child,
    start: i === 0 ? parent.start : child.start,
    end: i === children.length - 1 ? parent.end : child.end
  }))

/** The next finer split of a unit with no children of its own, or none when it is one code point. */
const splitText = (source: string, unit: Span, budget: number): ReadonlyArray<Span> | undefined => {
  for (const split of [lineSpans, sentenceSpans, wordSpans]) {
    const spans = split(source, unit.start, unit.end)
    if (spans.length > 1) return spans
  }
  // Halving a unit that already fits in bytes keeps every step smaller than the last, whatever the counter.
  const bytes = utf8Length(source.slice(unit.start, unit.end))
  const windows = windowSpans(source, unit.start, unit.end, Math.max(1, Math.min(budget, Math.ceil(bytes / 2))))
  return windows.length > 1 ? windows : undefined
}

const refine = (source: string, unit: Unit, budget: number, count: Count): Array<Piece> => {
  const repeat = unit.repeat
  const own = unit.children?.()
  // Repeating the header is worth it only while it leaves most of the budget to the rows.
  if (repeat !== undefined && own !== undefined && own.length > 0 && count(`${repeat}\n`) * 2 <= budget) {
    // The children follow the repeated text in the source; every piece carries it, the first from the source itself.
    const inner = Math.max(1, budget - count(`${repeat}\n`))
    const rows = cover(own, { start: own[0]!.start, end: unit.end })
    return pack(source, rows, inner, count).map((piece, i) => ({
      start: i === 0 ? unit.start : piece.start,
      end: piece.end,
      text: `${repeat}\n${piece.text}`
    }))
  }
  const children = own !== undefined && own.length > 1 ? own : splitText(source, unit, budget)
  if (children === undefined) return [{ start: unit.start, end: unit.end, text: source.slice(unit.start, unit.end) }]
  return pack(source, cover(children, unit), budget, count)
}

/**
 * Packs `units` (in source order, not overlapping) into pieces whose text costs at most `budget`
 * by `count`; only a single code point that alone exceeds the budget is emitted over it.
 */
export const pack = (source: string, units: ReadonlyArray<Unit>, budget: number, count: Count): Array<Piece> => {
  const out: Array<Piece> = []
  let group: Array<Unit> = []
  let cost = 0
  const emit = (units: ReadonlyArray<Unit>): void => {
    const text = joinText(source, units)
    // Summed costs can miss a merge across a boundary; the whole text is checked, and halved if over.
    if (units.length > 1 && count(text) > budget) {
      const middle = units.length >> 1
      emit(units.slice(0, middle))
      emit(units.slice(middle))
      return
    }
    out.push({ start: units[0]!.start, end: units[units.length - 1]!.end, text })
  }
  const flush = () => {
    if (group.length > 0) emit(group)
    group = []
    cost = 0
  }
  for (const unit of units) {
    const own = count(source.slice(unit.start, unit.end))
    if (own > budget) {
      flush()
      out.push(...refine(source, unit, budget, count))
      continue
    }
    const last = group[group.length - 1]
    const gap = last === undefined ? 0 : count(gapBetween(source, last, unit))
    if (last !== undefined && cost + gap + own > budget) flush()
    cost += group.length === 0 ? own : gap + own
    group.push(unit)
  }
  flush()
  return out
}
