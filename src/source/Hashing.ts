/**
 * SHA-256 through Effect's `Digest` service, so discovery stays free of platform crypto: the Node
 * pipeline provides `NodeCrypto.layerDigest`, tests may use `Digest.layerWebCrypto`.
 */
import type { Effect } from "effect"
import * as Digest from "effect/crypto/Digest"

const encoder = new TextEncoder()

export const sha256Bytes = (bytes: Uint8Array): Effect.Effect<string, never, Digest.Digest> =>
  Digest.Digest.use((digest) => digest.digestHex(Digest.sha256, bytes))

export const sha256Text = (text: string): Effect.Effect<string, never, Digest.Digest> =>
  sha256Bytes(encoder.encode(text))

/** True when the bytes open with a UTF-8 byte-order mark. */
export const hasBom = (bytes: Uint8Array): boolean =>
  bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf

/**
 * The content hash of a file: SHA-256 of its bytes, except that a document's leading byte-order
 * mark is not content (it parses to the same tree), so it is stripped first.
 */
export const contentHash = (bytes: Uint8Array, stripBom: boolean): Effect.Effect<string, never, Digest.Digest> =>
  sha256Bytes(stripBom && hasBom(bytes) ? bytes.subarray(3) : bytes)
