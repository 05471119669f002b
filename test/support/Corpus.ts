/**
 * A small hand-written knowledge base for pipeline tests: notes about a team's deploys, incidents
 * and conventions, with author relations between them. Every fact a test relies on is visible here.
 */
import type { Chunk } from "../../src/domain/Chunk.ts"
import type { NoteEdge } from "../../src/ports/GraphStore.ts"
import { chunk } from "./Fixtures.ts"

const note = (
  path: string,
  title: string,
  noteType: Chunk["noteType"],
  sections: ReadonlyArray<[heading: string, body: string]>
): Array<Chunk> =>
  sections.map(([heading, body], i) =>
    chunk({
      id: `${path}#s${i}`,
      noteId: path,
      title,
      noteType,
      headingPath: [heading],
      lineStart: 1 + i * 10,
      text: `${title} > ${heading}\n${body}`
    })
  )

export const chunks: ReadonlyArray<Chunk> = [
  ...note("runbooks/rollback.md", "Rolling back a deploy", "reference", [
    ["When to roll back", "Roll back when the error rate stays above two percent for five minutes after a deploy."],
    ["Steps", "Run `deployctl rollback --to previous` from the release channel, then confirm the health checks pass."]
  ]),
  ...note("decisions/blue-green.md", "Blue-green deploys", "decision", [
    ["Decision", "We chose blue-green deploys over rolling updates because rollback becomes a traffic switch."],
    ["Consequences", "Every service keeps two environments warm, which doubles the idle cost during a release."]
  ]),
  ...note("conventions/branch-names.md", "Branch naming", "convention", [
    ["Rule", "Branches are named after the ticket, like `pay-142-refund-retry`, in lower case with hyphens."]
  ]),
  ...note("state/checkout-migration.md", "Checkout migration status", "state", [
    ["Status", "The checkout migration is 70 percent done; the refunds service moves next sprint."]
  ]),
  ...note("architecture/release-pipeline.md", "Release pipeline", "reference", [
    ["Overview", "Every merge to main builds an image, runs the contract suite and waits for a manual promote."],
    ["Environments", "Staging mirrors production data nightly; production deploys happen in business hours only."]
  ]),
  ...note("notes/incident-review-may.md", "Incident review, May", "note", [
    ["Summary", "A bad config push took checkout down for twelve minutes; the rollback runbook was followed."]
  ]),
  ...note("notes/relations-only.md", "Relations", "note", [
    ["Relations", "depends_on [[runbooks/rollback]]\nrelates_to [[decisions/blue-green]]"]
  ]).map((c) => ({ ...c, isLinkList: true }))
]

export const edges: ReadonlyArray<NoteEdge> = [
  { from: "runbooks/rollback.md", to: "architecture/release-pipeline.md", verb: "depends_on" },
  { from: "runbooks/rollback.md", to: "decisions/blue-green.md", verb: "relates_to" },
  { from: "notes/incident-review-may.md", to: "runbooks/rollback.md", verb: "links-to" },
  { from: "decisions/blue-green.md", to: "notes/old-canary.md", verb: "supersedes" }
]

export const corpus = { chunks, edges }
