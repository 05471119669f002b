/**
 * An outline's units as plain data: offsets in one `Int32Array`, symbol names in one `Uint16Array`.
 * Discovery parses a file once and hands its units on to the chunker in this form, so the chunker
 * need not parse the file again. Both parts survive a worker's message, and neither keeps the
 * file's text alive (a name read from a parse is a slice of it).
 */
import type { OutlineUnit, Span } from "./OutlineUnit.ts"

export interface PackedUnits {
  /**
   * Per unit: start, end, 1 for a declaration else 0, its number of symbols and each one's length
   * in UTF-16 code units, its number of children (-1 for none) and each child's start and end.
   */
  readonly layout: Int32Array
  /** The units' symbols, in order, one after another, as UTF-16 code units (exactly, lone surrogates too). */
  readonly symbols: Uint16Array
  /** The length of the text the units cut, in UTF-16 code units: a text of another length is not theirs. */
  readonly sourceLength: number
}

const codeUnits = (text: string): Uint16Array => {
  const units = new Uint16Array(text.length)
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i)
  return units
}

export const pack = (units: ReadonlyArray<OutlineUnit>, sourceLength: number): PackedUnits => {
  const layout: Array<number> = []
  const names: Array<string> = []
  for (const unit of units) {
    layout.push(unit.start, unit.end, unit.declaration ? 1 : 0, unit.symbols.length)
    for (const symbol of unit.symbols) {
      layout.push(symbol.length)
      names.push(symbol)
    }
    const children = unit.children?.()
    if (children === undefined) layout.push(-1)
    else {
      layout.push(children.length)
      for (const child of children) layout.push(child.start, child.end)
    }
  }
  return { layout: Int32Array.from(layout), symbols: codeUnits(names.join("")), sourceLength }
}

/** Code units back into text, a few thousand at a time: one call's arguments are bounded. */
const textOf = (units: Uint16Array): string => {
  let text = ""
  for (let at = 0; at < units.length; at += 4096) text += String.fromCharCode(...units.subarray(at, at + 4096))
  return text
}

/** The units `pack` was given, each child list as it was. */
export const unpack = (packed: PackedUnits): Array<OutlineUnit> => {
  const { layout } = packed
  const { symbols: names } = packed
  const units: Array<OutlineUnit> = []
  let at = 0
  let name = 0
  while (at < layout.length) {
    const start = layout[at++]!
    const end = layout[at++]!
    const declaration = layout[at++] === 1
    const symbolCount = layout[at++]!
    const symbols: Array<string> = []
    for (let i = 0; i < symbolCount; i++) {
      const length = layout[at++]!
      symbols.push(textOf(names.subarray(name, name + length)))
      name += length
    }
    const childCount = layout[at++]!
    let children: ReadonlyArray<Span> | undefined
    if (childCount >= 0) {
      const spans: Array<Span> = []
      for (let i = 0; i < childCount; i++) spans.push({ start: layout[at++]!, end: layout[at++]! })
      children = spans
    }
    units.push({ start, end, symbols, declaration, children: children === undefined ? undefined : () => children })
  }
  return units
}

/** Bytes the packed units hold, for a store that bounds what it keeps. */
export const byteSize = (packed: PackedUnits): number => packed.layout.byteLength + packed.symbols.byteLength
