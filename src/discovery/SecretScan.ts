/**
 * Secrets inside ordinary files: well-known credential shapes found in a file's text and replaced
 * before anything derived from the text (summaries, headings, chunks) is made, so no snapshot,
 * index or pack can quote one. Each finding is reported by line and kind, never by value. Files a
 * configuration names as `unredacted` are kept as written. `Sensitive.ts` covers files whose very
 * name says secrets; this covers the secret pasted into `src/aws.ts` or a runbook.
 *
 * The shapes are cairn's own regular expressions, each after the rule of a maintained scanner
 * named beside it (gitleaks' config/gitleaks.toml rule ids; detect-secrets' plugin names), kept
 * few and specific: a false positive costs a passage's words, a false negative a leaked key.
 */
import ignore from "ignore"

export interface SecretRule {
  /** The id coverage reports, after the rule it follows. */
  readonly id: string
  readonly description: string
  /** Global; the secret is the named group `secret`, else the whole match. */
  readonly pattern: RegExp
  /** Least Shannon entropy, in bits per character, for the secret to count. */
  readonly minEntropy?: number
}

/** Bump when a rule changes what is redacted: chunks and snapshots made under other rules are rebuilt. */
export const SECRET_RULES_VERSION = "secrets/1"

export const RULES: ReadonlyArray<SecretRule> = [
  // gitleaks `aws-access-token`: the key id prefixes AWS documents, 16 base-32 characters after.
  { id: "aws-access-key-id", description: "AWS access key id", pattern: /\b(?<secret>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b/g },
  // detect-secrets `AWSKeyDetector`: 40 base-64 characters assigned to a name saying AWS and secret.
  {
    id: "aws-secret-access-key",
    description: "AWS secret access key",
    pattern: /aws.{0,20}?secret.{0,20}?[=:]\s*["'`]?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi
  },
  // gitleaks `github-pat`, `github-oauth`, `github-app-token`, `github-refresh-token`.
  { id: "github-token", description: "GitHub token", pattern: /\b(?<secret>gh[pousr]_[A-Za-z0-9]{36,255})\b/g },
  // gitleaks `github-fine-grained-pat`.
  { id: "github-fine-grained-pat", description: "GitHub fine-grained token", pattern: /\b(?<secret>github_pat_\w{82})\b/g },
  // gitleaks `gitlab-pat` (and its siblings with other `gl…-` prefixes).
  { id: "gitlab-token", description: "GitLab token", pattern: /\b(?<secret>gl(?:pat|ptt|dt|rt|soat|ft|imt|agent)-[\w-]{20,})/g },
  // gitleaks `slack-bot-token`, `slack-user-token`, `slack-app-token`, `slack-legacy-token`.
  { id: "slack-token", description: "Slack token", pattern: /\b(?<secret>xox[abeoprs]-(?:\d+-)?[A-Za-z0-9-]{10,})/g },
  // gitleaks `slack-webhook-url`.
  {
    id: "slack-webhook-url",
    description: "Slack webhook URL",
    pattern: /(?<secret>https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{43,56})/g
  },
  // gitleaks `private-key`: a PEM private-key block, header to footer.
  {
    id: "private-key",
    description: "private key block",
    pattern: /(?<secret>-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{16,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----)/g
  },
  // gitleaks `jwt`: three base64url parts, the first two JSON objects (`ey…`).
  {
    id: "jwt",
    description: "JSON web token",
    pattern: /\b(?<secret>ey[A-Za-z0-9]{17,}\.ey[A-Za-z0-9/_-]{17,}\.[A-Za-z0-9/_-]{10,}={0,2})/g
  },
  // gitleaks `generic-api-key` (its entropy floor of 3.5 bits), narrowed to quoted assignments.
  {
    id: "generic-password",
    description: "password or secret assignment",
    pattern: /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?\s*[:=]\s*(["'`])(?<secret>[^"'`\s]{8,200})\1/gi,
    minEntropy: 3.5
  }
]

// Cheap test first: a file with none of these strings has no secret any rule finds.
const HINT = /AKIA|ASIA|ABIA|ACCA|A3T|aws|gh[pousr]_|github_pat_|gl[a-z]+-|xox|hooks\.slack|PRIVATE KEY|eyJ|passw|pwd|secret|api[_-]?key|token/i

export interface SecretFinding {
  /** 1-based line the secret starts on. */
  readonly line: number
  readonly rule: string
  readonly description: string
}

export interface Redacted {
  readonly text: string
  /** In line order, then rule id. */
  readonly findings: ReadonlyArray<SecretFinding>
}

const entropy = (value: string): number => {
  const counts = new Map<string, number>()
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const p = count / value.length
    bits -= p * Math.log2(p)
  }
  return bits
}

interface Span {
  readonly start: number
  readonly end: number
  readonly rule: SecretRule
}

/**
 * `text` with every secret replaced by `[redacted:<rule>]` and as many line breaks as it spanned,
 * so lines keep their numbers. Overlapping finds keep the earliest, then the longest.
 */
export const redact = (text: string): Redacted => {
  if (!HINT.test(text)) return { text, findings: [] }
  const spans: Array<Span> = []
  for (const rule of RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      const secret = match.groups?.["secret"] ?? match[0]
      if (rule.minEntropy !== undefined && entropy(secret) < rule.minEntropy) continue
      const start = match.index + match[0].lastIndexOf(secret)
      spans.push({ start, end: start + secret.length, rule })
    }
  }
  if (spans.length === 0) return { text, findings: [] }
  spans.sort((a, b) => a.start - b.start || b.end - a.end || (a.rule.id < b.rule.id ? -1 : 1))
  let out = ""
  let at = 0
  let line = 1
  let counted = 0
  const findings: Array<SecretFinding> = []
  for (const span of spans) {
    if (span.start < at) continue
    for (let i = text.indexOf("\n", counted); i >= 0 && i < span.start; i = text.indexOf("\n", counted)) {
      line++
      counted = i + 1
    }
    const breaks = text.slice(span.start, span.end).split("\n").length - 1
    out += `${text.slice(at, span.start)}[redacted:${span.rule.id}]${"\n".repeat(breaks)}`
    findings.push({ line, rule: span.rule.id, description: span.rule.description })
    at = span.end
  }
  return { text: out + text.slice(at), findings }
}

/** Redaction under a configuration: files matching an `unredacted` gitignore-style pattern are kept as written. */
export const redactor = (unredacted: ReadonlyArray<string>): ((path: string, text: string) => Redacted) => {
  const kept = unredacted.length > 0 ? ignore({ ignorecase: false }).add([...unredacted]) : undefined
  return (path, text) => (kept?.ignores(path) === true ? { text, findings: [] } : redact(text))
}

/** Each finding as the coverage entry of its file: where and what kind, never the value. */
export const findingsToCoverage = (analyzer: string, path: string, findings: ReadonlyArray<SecretFinding>) =>
  findings.map((finding) => ({
    analyzer,
    scope: path,
    status: "excluded-sensitive" as const,
    reason: `line ${finding.line}: ${finding.description} redacted (${finding.rule}); set discovery.unredacted to keep it`
  }))
