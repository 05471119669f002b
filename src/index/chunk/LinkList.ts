/**
 * Recognising a chunk that is nothing but links: a "see also" list, an index page, a relations
 * list of `verb [[target]]` lines. Such a chunk feeds the graph and is indexed, but says nothing a
 * reader could quote, so the packer drops it.
 */

const LINK = /\[\[[^[\]\n]+\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|\[[^\]\n]+\]\[[^\]\n]*\]|<[a-z][a-z0-9+.-]*:[^>\s]*>|\b[a-z][a-z0-9+.-]*:\/\/\S+/giu
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/
const WORD = /[\p{L}\p{N}]/u

/** Words a list item may carry besides its links: a relation verb (`depends on`) or a short label. */
export const MAX_LINK_ITEM_WORDS = 3

const wordsOutsideLinks = (line: string): number =>
  line.replace(LINK, " ").split(/\s+/).filter((word) => WORD.test(word)).length

/**
 * True when every non-blank line of `body` is a link line: a list item holding at least one link
 * and at most {@link MAX_LINK_ITEM_WORDS} other words, or a line of links alone. Under a `Relations`
 * heading any list item with a link counts, whatever else it says.
 */
export const isLinkList = (body: string, relationsSection: boolean): boolean => {
  let lines = 0
  for (const line of body.split("\n")) {
    if (line.trim() === "") continue
    lines++
    LINK.lastIndex = 0
    if (!LINK.test(line)) return false
    const item = LIST_MARKER.exec(line)
    const rest = item === null ? line : line.slice(item[0].length)
    const words = wordsOutsideLinks(rest)
    if (item === null ? words > 0 : !relationsSection && words > MAX_LINK_ITEM_WORDS) return false
  }
  return lines > 0
}
