/**
 * The secret scanner alone: each shape it knows found and redacted with lines kept, look-alikes
 * left as written. The values below are AWS's documented examples or made up; none is live.
 */
import { assert, describe, it } from "@effect/vitest"
import { redact, redactor } from "../../src/discovery/SecretScan.ts"

const GITHUB = `ghp_${"A1b2C3d4E5".repeat(3)}xYz789`
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
const PEM = ["-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "QyNTUxOQAAACDfakefakefakefakefakefakefakefakefakefakefakeAAAA", "-----END OPENSSH PRIVATE KEY-----"].join("\n")

describe("SecretScan", () => {
  it("redact - finds each known shape, reports line and rule, keeps every line where it was", () => {
    const text = [
      "const region = \"eu-west-1\"",
      "const accessKeyId = \"AKIAIOSFODNN7EXAMPLE\"",
      "const awsSecretAccessKey = \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"",
      `token: ${GITHUB}`,
      "gitlab = glpat-aB3dE6gH9jK2mN5pQ8sT",
      "slack = xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
      PEM,
      `Authorization: Bearer ${JWT}`,
      "password = \"q8Zr!2xLp#9Vw4Kd\"",
      "the end"
    ].join("\n")
    const { findings, text: redacted } = redact(text)
    assert.deepStrictEqual(findings.map((f) => [f.line, f.rule]), [
      [2, "aws-access-key-id"],
      [3, "aws-secret-access-key"],
      [4, "github-token"],
      [5, "gitlab-token"],
      [6, "slack-token"],
      [7, "private-key"],
      [11, "jwt"],
      [12, "generic-password"]
    ])
    assert.strictEqual(redacted.split("\n").length, text.split("\n").length)
    assert.strictEqual(redacted.split("\n")[12], "the end")
    for (const secret of ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI", GITHUB, "glpat-", "xoxb-", "PRIVATE KEY", "b3BlbnNzaC1rZXkt", JWT, "q8Zr!2xLp"]) {
      assert.notInclude(redacted, secret)
    }
    assert.include(redacted, "const accessKeyId = \"[redacted:aws-access-key-id]\"")
  })

  it("redact - leaves look-alikes alone: low-entropy passwords, prose, public keys, short prefixes", () => {
    const text = [
      "password = \"changeme\"",
      "Set the password in the vault; never in code.",
      "-----BEGIN PUBLIC KEY-----",
      "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE",
      "-----END PUBLIC KEY-----",
      "ghp_short",
      "AKIA is the prefix of an access key id."
    ].join("\n")
    assert.deepStrictEqual(redact(text), { text, findings: [] })
  })

  it("redactor - a path matching an unredacted pattern is kept as written", () => {
    const text = `token: ${GITHUB}\n`
    const redacting = redactor(["docs/examples/"])
    assert.deepStrictEqual(redacting("docs/examples/keys.md", text), { text, findings: [] })
    assert.strictEqual(redacting("docs/runbook.md", text).findings.length, 1)
  })
})
