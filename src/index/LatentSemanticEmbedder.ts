/**
 * Latent semantic embedder (Deerwester et al., "Indexing by Latent Semantic Analysis", 1990),
 * trained on the corpus itself: TF-IDF over the analysed terms, then a truncated SVD by the seeded
 * randomized method, so terms that keep the same company share directions and a paraphrase can
 * land near its source with no word in common. Offline: no network, no downloaded weights.
 *
 * The model (vocabulary, idf, projection) is plain data with a schema, so it can be persisted and
 * reloaded to bit-identical vectors; the projection is stored as float32, and training rounds to
 * float32 before anything is embedded, so a fresh and a reloaded model are the same numbers.
 */
import { Effect, Schema } from "effect"
import { Base64 } from "effect/encoding"
import { hashParts2, unitWithReservedAxis } from "./HashingEmbedder.ts"
import type { TextEncoderModel } from "./HashingEmbedder.ts"
import { stem } from "../text/Porter.ts"
import type { SparseRows } from "./RandomizedSvd.ts"
import { truncatedSvd } from "./RandomizedSvd.ts"
import { release, termTable } from "./TermTable.ts"
import { terms } from "../text/Words.ts"
import { compareIds } from "../domain/Ranking.ts"

export interface LsaOptions {
  /** Latent dimensions k; the embedding has k + 1 components (see `unitWithReservedAxis`). */
  readonly latentDimension: number
  readonly seed: number
  readonly powerIterations: number
  readonly oversampling: number
  /** Terms in fewer documents carry no co-occurrence and are left out. */
  readonly minDocumentFrequency: number
  /** Vocabulary cap, keeping the terms in the most documents (ties by term). */
  readonly maxVocabulary: number
}

export const defaultLsaOptions: LsaOptions = {
  latentDimension: 128,
  seed: 42,
  powerIterations: 2,
  oversampling: 10,
  minDocumentFrequency: 2,
  maxVocabulary: 50_000
}

const FORMAT = "cairn/lsa@1"

const NOT_BASE64 = /[^A-Za-z0-9+/=]/

/**
 * The bytes of a base64 text, decoded natively where the runtime can (Node's `Buffer`: under a
 * millisecond for a 5 MB projection, where `atob` and a copy into bytes took 13 to 23 ms). Every
 * refresh and every one-shot question that embeds restores the model, so this is on their path.
 */
const decodeBase64: (text: string) => Uint8Array = typeof Buffer === "function"
  ? (text) => Buffer.from(text, "base64")
  : (text) => {
    const binary = atob(text)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  }

/**
 * The bytes a padded base64 text decodes to, or -1 when it is not one. With `Buffer`, by decoding
 * and checking the length: `Buffer` skips an ASCII character outside the alphabet, so any such
 * character leaves fewer bytes than the text's length promises (re-encoding to compare cost 6 ms a refresh,
 * and refused stray bits in the last character too, which decode to the same bytes).
 * Elsewhere by the pattern, without decoding. The decoded bytes are kept for `fromBase64`, which
 * is asked for the same text next.
 */
const base64Bytes = (text: string): number => {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0
  const promised = (text.length / 4) * 3 - padding
  if (text.length % 4 !== 0) return -1
  if (typeof Buffer === "function") {
    // `Buffer` reads a character past ASCII by its low byte (İ as 0), rather than skipping it.
    if (Buffer.byteLength(text, "utf8") !== text.length) return -1
    const bytes = decodeBase64(text)
    const firstPad = text.indexOf("=")
    if (bytes.length !== promised || (firstPad !== -1 && firstPad < text.length - padding)) return -1
    // base64url's two letters, which `Buffer` reads as it reads `+` and `/`.
    if (text.includes("-") || text.includes("_")) return -1
    lastDecoded = { text, bytes }
    return promised
  }
  const padded = text.indexOf("=")
  if (NOT_BASE64.test(text) || (padded !== -1 && padded !== text.length - padding)) return -1
  return promised
}

/** The last text `base64Bytes` decoded, and its bytes. */
let lastDecoded: { readonly text: string; readonly bytes: Uint8Array } | undefined

/**
 * Arrays of tens of thousands of entries, checked in one loop each: a one-shot question restores
 * the model on every run, and an element-by-element schema decode of them cost it 20 ms.
 */
const StringArray = Schema.declare(
  (u: unknown): u is ReadonlyArray<string> => Array.isArray(u) && u.every((term) => typeof term === "string"),
  { expected: "an array of strings" }
)
const FiniteArray = Schema.declare(
  (u: unknown): u is ReadonlyArray<number> => Array.isArray(u) && u.every((value) => typeof value === "number" && Number.isFinite(value)),
  { expected: "an array of finite numbers" }
)

export const LsaModel = Schema.Struct({
  format: Schema.Literal(FORMAT),
  seed: Schema.Int,
  latentDimension: Schema.Int.check(Schema.isGreaterThan(0)),
  /** Analysed terms in code-unit order; a term's position is its row in `projection`. */
  vocabulary: StringArray,
  idf: FiniteArray,
  /** Base64 of little-endian float32, `vocabulary.length × latentDimension`, row-major. */
  projection: Schema.String
}).check(
  Schema.makeFilter((model) =>
    model.idf.length === model.vocabulary.length &&
    base64Bytes(model.projection) === model.vocabulary.length * model.latentDimension * 4, { expected: "idf and projection sized to the vocabulary" })
)
export type LsaModel = typeof LsaModel.Type

const LsaModelJson = Schema.fromJsonString(LsaModel)

/** The model as JSON text, keys in a fixed order. */
export const encodeModel = (model: LsaModel): string => JSON.stringify(model)

/** Reads a model written by {@link encodeModel}; fails with a `SchemaError` on anything else. */
export const decodeModel = Schema.decodeUnknownEffect(LsaModelJson)

const decodeParsed = Schema.decodeUnknownEffect(LsaModel)
const utf8 = new TextDecoder()
/** `,"projection":"` in bytes: the last key {@link encodeModel} writes, never inside a JSON string (its quotes would be escaped). */
const PROJECTION_KEY = new TextEncoder().encode(',"projection":"')
const QUOTE = 0x22
const CLOSE = 0x7d

const indexOfKey = (bytes: Uint8Array): number => {
  search: for (let i = 0; i + PROJECTION_KEY.length <= bytes.length; i++) {
    for (let j = 0; j < PROJECTION_KEY.length; j++) if (bytes[i + j] !== PROJECTION_KEY[j]) continue search
    return i
  }
  return -1
}

/**
 * Reads a model from the UTF-8 bytes {@link encodeModel} wrote, as {@link decodeModel} reads its
 * text, and to the same result. Most of those bytes are the projection's base64, so they are not
 * made into one text with the vocabulary and parsed as JSON: the head is parsed, and the projection
 * taken as the ASCII it is (a one-byte string, decoded natively). Bytes of any other layout are
 * decoded whole.
 */
export const decodeModelBytes = (bytes: Uint8Array): Effect.Effect<LsaModel, Schema.SchemaError> => {
  const key = indexOfKey(bytes)
  const end = bytes.length - 2
  if (key < 0 || end < key + PROJECTION_KEY.length || bytes[end] !== QUOTE || bytes[end + 1] !== CLOSE) return decodeModel(utf8.decode(bytes))
  const projection = utf8.decode(bytes.subarray(key + PROJECTION_KEY.length, end))
  let head: unknown
  try {
    head = JSON.parse(`${utf8.decode(bytes.subarray(0, key))}}`)
  } catch {
    return decodeModel(utf8.decode(bytes))
  }
  // A quote or backslash would have ended or escaped the string: let the whole text's parse say so.
  if (projection.includes("\"") || projection.includes("\\") || typeof head !== "object" || head === null) return decodeModel(utf8.decode(bytes))
  return decodeParsed({ ...head, projection })
}

const toBase64 = (values: Float32Array): string => {
  const bytes = new Uint8Array(values.length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true)
  return Base64.encode(bytes)
}

/** Whether this platform keeps a float's least significant byte first, as the model text does. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** The floats of a base64 text already checked by the schema: a view over the bytes where it can be. */
const fromBase64 = (text: string): Float32Array => {
  const held = lastDecoded
  lastDecoded = undefined
  const bytes = held !== undefined && held.text === text ? held.bytes : decodeBase64(text)
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Float32Array(bytes.length / 4)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true)
  return out
}



/** `array` moved into one twice its length, the old one freed (see `release`). */
const grown = (array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => new Int32Array(array.buffer.transfer(array.byteLength * 2))

/** A text's vocabulary rows, ascending, with `(1 + ln tf)` for each; valid until the next call. */
interface TermWeights {
  readonly size: number
  readonly rows: Int32Array
  readonly weights: Float64Array
}

interface TermWeigher {
  readonly terms: (termsOfText: ReadonlyArray<string>) => TermWeights
  /** The same for terms already looked up: vocabulary rows, negative for a term outside it. */
  readonly rows: (rowsOfText: ArrayLike<number>) => TermWeights
}

/**
 * Weighs texts against one vocabulary, rows ascending so sums are taken in one canonical order.
 * Term frequencies are counted in a table the size of the vocabulary, reset after each text: a
 * map and sorted pairs per text cost more than the projection that follows.
 */

const termWeigher = (index: ReadonlyMap<string, number>): TermWeigher => {
  let rowCount = 0
  for (const row of index.values()) rowCount = Math.max(rowCount, row + 1)
  const frequency = new Int32Array(rowCount)
  const held = { size: 0, rows: new Int32Array(256), weights: new Float64Array(256) }
  let size = 0
  const add = (row: number): void => {
    if (frequency[row]!++ > 0) return
    if (size === held.rows.length) {
      const rows = new Int32Array(size * 2)
      rows.set(held.rows)
      held.rows = rows
      held.weights = new Float64Array(size * 2)
    }
    held.rows[size++] = row
  }
  const finish = (): TermWeights => {
    held.rows.subarray(0, size).sort()
    for (let i = 0; i < size; i++) {
      const row = held.rows[i]!
      held.weights[i] = 1 + Math.log(frequency[row]!)
      frequency[row] = 0
    }
    held.size = size
    size = 0
    return held
  }
  return {
    terms: (termsOfText) => {
      for (const term of termsOfText) {
        const row = index.get(term)
        if (row !== undefined) add(row)
      }
      return finish()
    },
    rows: (rowsOfText) => {
      for (let i = 0; i < rowsOfText.length; i++) {
        const row = rowsOfText[i]!
        if (row >= 0) add(row)
      }
      return finish()
    }
  }
}

/** What the model is trained on and the encoder reads of a text: its analysed terms, the same under every model. */
export const analyse = terms

/**
 * Trains a model on `texts`. The texts are sorted first, so the model depends on the multiset of
 * texts and the options, never on the order they arrived in.
 */
export const train = (texts: ReadonlyArray<string>, overrides: Partial<LsaOptions> = {}): LsaModel => {
  const options = { ...defaultLsaOptions, ...overrides }
  // Each document is held as term ids, not strings: every occurrence of a word is a string of its
  // own, and a corpus's terms held as strings cost several times its text. The distinct terms are
  // held in typed arrays too, and only those kept become strings again.
  const ids = termTable()
  // Document frequency by term id, typed, as a term may occur once; a document's distinct terms are
  // found by sorting a copy of its ids, which needs no per-term record of the last document.
  let df = new Int32Array(1_024)
  let sorted = new Int32Array(1_024)
  const documents = [...texts].sort(compareIds).map((text) => {
    const terms = analyse(text)
    const doc = new Int32Array(terms.length)
    for (let i = 0; i < terms.length; i++) doc[i] = ids.idOf(terms[i]!)
    while (df.length < ids.size()) df = grown(df)
    while (sorted.length < doc.length) sorted = grown(sorted)
    const view = sorted.subarray(0, doc.length)
    view.set(doc)
    view.sort()
    for (let i = 0; i < view.length; i++) if (i === 0 || view[i] !== view[i - 1]) df[view[i]!]!++
    return doc
  })
  const kept: Array<{ readonly term: string; readonly id: number }> = []
  for (let id = 0; id < ids.size(); id++) {
    if (df[id]! >= options.minDocumentFrequency) kept.push({ term: ids.termOf(id), id })
  }
  const chosen = kept
    .sort((a, b) => (df[b.id]! - df[a.id]!) || compareIds(a.term, b.term))
    .slice(0, options.maxVocabulary)
    .sort((a, b) => compareIds(a.term, b.term))
  const vocabulary = chosen.map(({ term }) => term)
  const index = new Map(vocabulary.map((term, row) => [term, row] as const))
  const rowOfId = new Int32Array(ids.size()).fill(-1)
  chosen.forEach(({ id }, row) => {
    rowOfId[id] = row
  })
  const n = documents.length
  const idf = chosen.map(({ id }) => Math.log((1 + n) / (1 + df[id]!)) + 1)
  // Every term's characters and counts, most of them never kept, freed before the matrix is built.
  ids.release()
  release(df, sorted)

  const rowStart = new Int32Array(n + 1)
  const colIndex: Array<number> = []
  const values: Array<number> = []
  const weigh = termWeigher(index)
  documents.forEach((doc, r) => {
    for (let i = 0; i < doc.length; i++) doc[i] = rowOfId[doc[i]!]!
    const { size, rows, weights } = weigh.rows(doc)
    let sum = 0
    for (let i = 0; i < size; i++) {
      weights[i] = weights[i]! * idf[rows[i]!]!
      sum += weights[i]! * weights[i]!
    }
    const norm = Math.sqrt(sum)
    for (let i = 0; i < size; i++) {
      colIndex.push(rows[i]!)
      values.push(weights[i]! / norm)
    }
    rowStart[r + 1] = colIndex.length
  })
  release(rowOfId)
  const matrix: SparseRows = {
    rows: n,
    cols: vocabulary.length,
    rowStart,
    colIndex: Int32Array.from(colIndex),
    values: Float64Array.from(values)
  }
  const k = options.latentDimension
  const svd = truncatedSvd(matrix, { rank: k, oversampling: options.oversampling, powerIterations: options.powerIterations, seed: options.seed })
  return {
    format: FORMAT,
    seed: options.seed,
    latentDimension: k,
    vocabulary,
    idf,
    projection: toBase64(Float32Array.from(svd.vectors))
  }
}

/**
 * An encoder over a trained model. `embedRows` takes a text's {@link analyse}d terms as vocabulary
 * rows (`rowOf`, -1 for a term outside it), so a text can be analysed before the model exists:
 * `embedOne(text)` is `embedRows(analyse(text).map(rowOf))`, bit for bit.
 */
export interface LsaEncoder extends TextEncoderModel {
  readonly rowOf: (term: string) => number
  readonly embedRows: (rowsOfText: ArrayLike<number>) => Array<number>
}

/**
 * LSA "folding in": a text's TF-IDF weights (`(1 + ln tf) × idf`, rows ascending) times the rows of
 * `projection` (`k` float32 each), scaled to unit length. Every encoder embeds through this, so
 * vectors agree bit for bit however the model's rows were read.
 */
const foldIn = (k: number, idf: ArrayLike<number>, projection: Float32Array, { size, rows, weights }: TermWeights): Array<number> => {
  const latent = new Float64Array(k)
  for (let i = 0; i < size; i++) {
    const row = rows[i]!
    const w = weights[i]! * idf[row]!
    const offset = row * k
    for (let j = 0; j < k; j++) latent[j] = latent[j]! + w * projection[offset + j]!
  }
  return unitWithReservedAxis(latent)
}

/** The id of every LSA encoder: the model's content is in its version. */
export const ID = "cairn/lsa"

/**
 * An encoder over a model: a text's TF-IDF weights projected onto the latent directions (LSA
 * "folding in"), scaled to unit length. `version` is a fingerprint of the model's content, taken
 * when first asked for: restoring a stored model to embed a few chunks does not need it.
 */
export const encoder = (model: LsaModel): LsaEncoder => {
  const k = model.latentDimension
  const projection = fromBase64(model.projection)
  const index = new Map(model.vocabulary.map((term, row) => [term, row] as const))
  const weigh = termWeigher(index)
  let version: string | undefined
  const project = (weights: TermWeights): Array<number> => foldIn(k, model.idf, projection, weights)
  return {
    id: ID,
    get version() {
      if (version === undefined) {
        // The fingerprint of `${format}|${seed}|${k}|${vocabulary joined by NUL}|${idf joined by ,}|${projection}`.
        const parts: Array<string> = [`${model.format}|${model.seed}|${k}|`]
        model.vocabulary.forEach((term, i) => parts.push(i === 0 ? term : `\u0000${term}`))
        parts.push("|", model.idf.join(","), "|", model.projection)
        const fingerprint = hashParts2(parts, 1, 2).map((h) => h.toString(16).padStart(8, "0")).join("")
        version = `${FORMAT}/${k}/${fingerprint}`
      }
      return version
    },
    dimension: k + 1,
    rowOf: (term) => index.get(term) ?? -1,
    embedRows: (rowsOfText) => project(weigh.rows(rowsOfText)),
    embedOne: (text) => project(weigh.terms(analyse(text)))
  }
}

/** One vocabulary term of a model, as a store that keeps the model term by term holds it. */
export interface ModelTerm {
  readonly term: string
  /** The term's row in the vocabulary (code-unit order). */
  readonly row: number
  readonly idf: number
  /** The term's row of the projection: `latentDimension` float32 values. */
  readonly projection: Float32Array
}

/** The terms of `model`, in vocabulary order, each with its row of the projection (a view, not a copy). */
export const modelTerms = (model: LsaModel): Array<ModelTerm> => {
  const k = model.latentDimension
  const projection = fromBase64(model.projection)
  return model.vocabulary.map((term, row) => ({ term, row, idf: model.idf[row]!, projection: projection.subarray(row * k, (row + 1) * k) }))
}

/**
 * An encoder that reads a stored model only for the terms a text holds: `lookup` gives a term's
 * row, idf and projection, or undefined outside the vocabulary. Over the terms of a model it embeds
 * exactly as {@link encoder} of that model, bit for bit: the text's terms are folded in through the
 * same arithmetic, in the same order of rows. `version` is the stored model's, taken on trust: the
 * store vouches that its terms are the model of that fingerprint.
 */
export const termEncoder = (
  latentDimension: number,
  version: string,
  lookup: (term: string) => Omit<ModelTerm, "term"> | undefined
): TextEncoderModel => ({
  id: ID,
  version,
  dimension: latentDimension + 1,
  embedOne: (text) => {
    const analysed = analyse(text)
    const known: Array<Omit<ModelTerm, "term"> & { readonly term: string }> = []
    for (const term of new Set(analysed)) {
      const found = lookup(term)
      if (found !== undefined) known.push({ ...found, term })
    }
    // The text's own small model: its terms renumbered in the order of their rows in the whole.
    known.sort((a, b) => a.row - b.row)
    const projection = new Float32Array(known.length * latentDimension)
    known.forEach((entry, i) => projection.set(entry.projection, i * latentDimension))
    const weigh = termWeigher(new Map(known.map((entry, i) => [entry.term, i] as const)))
    return foldIn(latentDimension, known.map((entry) => entry.idf), projection, weigh.terms(analysed))
  }
})

/** Trains and wraps in one step, for callers that do not persist the model. */
export const trainEncoder = (texts: ReadonlyArray<string>, options: Partial<LsaOptions> = {}): Effect.Effect<TextEncoderModel> =>
  Effect.sync(() => encoder(train(texts, options)))
