/**
 * Files that commonly hold secrets. Discovery never reads one unless the configuration's `include`
 * names its exact path, so no snapshot, index or pack can ever quote it.
 */
import { basename } from "../source/Paths.ts"

// Matched against the file name alone, case-insensitively: a secret is a secret in any directory.
const PATTERNS: ReadonlyArray<RegExp> = [
  /^\.env($|\.)/, // .env, .env.local, .env.production
  /^\.envrc$/,
  /\.pem$/,
  /\.key$/,
  /\.p12$/,
  /\.pfx$/,
  /\.jks$/,
  /\.keystore$/,
  /\.kdbx$/,
  /^id_(rsa|dsa|ecdsa|ed25519)/,
  /^credentials($|\.)/,
  /^\.?netrc$/,
  /^\.npmrc$/,
  /^\.pypirc$/,
  /^\.pgpass$/,
  /^\.htpasswd$/,
  /^service-account.*\.json$/,
  /^secrets?\.(json|ya?ml|toml)$/
]

// One alternation: a single scan per file name instead of one per pattern.
const ANY = new RegExp(PATTERNS.map((pattern) => `(?:${pattern.source})`).join("|"))

/** True when the file name looks like one that holds credentials or keys. */
export const isSensitive = (path: string): boolean => ANY.test(basename(path).toLowerCase())
