/**
 * Jaro-Winkler similarity (Winkler, "String Comparator Metrics and Enhanced Decision Rules in the
 * Fellegi-Sunter Model of Record Linkage", 1990): Jaro's match-and-transposition score, raised for a
 * shared prefix of up to four characters with scaling factor 0.1.
 */

const PREFIX_SCALE = 0.1
const MAX_PREFIX = 4

export const jaro = (a: string, b: string): number => {
  if (a === b) return 1
  if (a.length === 0 || b.length === 0) return 0
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1)
  const matchedA = new Uint8Array(a.length)
  const matchedB = new Uint8Array(b.length)
  let matches = 0
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window)
    const to = Math.min(b.length - 1, i + window)
    for (let j = from; j <= to; j++) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1
        matchedB[j] = 1
        matches++
        break
      }
    }
  }
  if (matches === 0) return 0
  let transpositions = 0
  let k = 0
  for (let i = 0; i < a.length; i++) {
    if (matchedA[i] === 0) continue
    while (matchedB[k] === 0) k++
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++
    k++
  }
  return (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3
}

export const jaroWinkler = (a: string, b: string): number => {
  const similarity = jaro(a, b)
  let prefix = 0
  const limit = Math.min(MAX_PREFIX, a.length, b.length)
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++
  return similarity + prefix * PREFIX_SCALE * (1 - similarity)
}
