/** What `cairn graph` does (its flags are declared in GraphCommand.ts, so this module loads only when it runs). */
import type { GraphInput } from "./GraphCommand.ts"
import { Console, Effect, FileSystem, Option, Schema } from "effect"
import type { Snapshot } from "../../src/domain/Snapshot.ts"
import { decodeSnapshotJson } from "../../src/domain/Snapshot.ts"
import { areaDot } from "../../src/graph/AreaDot.ts"
import type { Centrality } from "../../src/graph/Centrality.ts"
import type { ImportCycle } from "../../src/graph/Cycles.ts"
import type { GraphSignals } from "../../src/graph/Signals.ts"
import { graphSignals } from "../../src/graph/Signals.ts"
import { scanWithProgress } from "./Progress.ts"

/** The snapshot given with `--snapshot` could not be read or decoded. */
export class GraphSnapshotInvalid extends Schema.TaggedError<GraphSnapshotInvalid>()("GraphSnapshotInvalid", {
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `--snapshot ${this.path}: ${this.detail} (write one with \`cairn snapshot --out FILE\`, or drop --snapshot to scan --root)`
  }
}

export const CENTRALITY_NOTE = "a review signal: a change here reaches further than its diff; not a claim about runtime behaviour"

// A schema message puts the field on its second line: keep both.
const firstLines = (message: string): string => message.split("\n").slice(0, 2).map((line) => line.trim()).join(" ")

const readSnapshot: (path: string) => Effect.Effect<Snapshot, GraphSnapshotInvalid, FileSystem.FileSystem> = Effect.fn("GraphAction.readSnapshot")(
  function*(path: string) {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(path)
    return yield* decodeSnapshotJson(text)
  },
  (effect, path) => effect.pipe(Effect.mapError((error) => new GraphSnapshotInvalid({ path, detail: firstLines(error.message) })))
)

const scan = (root: string) => scanWithProgress({ root })

/** `module:src/a.ts` reads as `src/a.ts`; other ids keep their kind. */
const label = (id: string): string => (id.startsWith("module:") ? id.slice("module:".length) : id)

const centralityHeading = (centrality: Centrality): string =>
  centrality.method === "exact"
    ? `exact over ${centrality.nodes} nodes`
    : `estimated from ${centrality.sources} of ${centrality.nodes} source nodes (seeded sample)`

/** What `--json` prints: the same content as the text report, the top lists cut to `top`. */
export const graphReport = (signals: GraphSignals, top: number) => ({
  canonical: signals.canonical.slice(0, top).map(({ path, score }) => ({ path, score })),
  centrality: {
    method: signals.centrality.method,
    nodes: signals.centrality.nodes,
    sources: signals.centrality.sources,
    note: CENTRALITY_NOTE,
    top: signals.centrality.scores.filter((entry) => entry.score > 0).slice(0, top)
  },
  cycles: signals.cycles,
  suggestions: signals.suggestions
})

const cycleLines = (cycle: ImportCycle): Array<string> => [
  `  ${[...cycle.nodes, cycle.nodes[0]!].map(label).join(" -> ")}`,
  ...cycle.edges.map((edge) =>
    `    ${label(edge.from)}${edge.lines.length > 0 ? `:${edge.lines.join(",")}` : ""} ${edge.kinds.join("+")} ${label(edge.to)}`
  )
]

/** The human-readable report. */
export const graphText = (signals: GraphSignals, top: number): string => {
  const lines: Array<string> = []
  const canonical = signals.canonical.slice(0, top)
  lines.push(`Most canonical documents (PageRank over links-to and covers; the top page is 1)`)
  if (canonical.length === 0) lines.push("  none: the snapshot holds no documents")
  for (const document of canonical) lines.push(`  ${document.score.toFixed(6)}  ${document.path}`)

  const central = signals.centrality.scores.filter((entry) => entry.score > 0).slice(0, top)
  lines.push("", `Most central modules (betweenness over imports and re-exports, ${centralityHeading(signals.centrality)})`)
  lines.push(`  ${CENTRALITY_NOTE}`)
  if (central.length === 0) lines.push("  none: no module lies on an import path between two others")
  for (const entry of central) lines.push(`  ${entry.score.toPrecision(6)}  ${label(entry.id)}`)

  const { bound, cycles, truncated } = signals.cycles
  lines.push("", `Import cycles: ${cycles.length}${truncated ? ` (the first ${bound}; there are more)` : ""}`)
  for (const cycle of cycles) lines.push(...cycleLines(cycle))

  lines.push("", `Area suggestions: ${signals.suggestions.length} (Louvain communities over imports; suggestions, not areas)`)
  // The reason names the directory already.
  for (const entry of signals.suggestions) lines.push(`  ${entry.reason}`)
  return lines.join("\n")
}

export const run = Effect.fn("cli.graph")(function*({ dot, json, root, snapshot, top }: GraphInput) {
  const input = Option.isSome(snapshot) ? yield* readSnapshot(snapshot.value) : yield* scan(root)
  if (dot) {
    yield* Console.log(areaDot(input))
    return
  }
  const signals = yield* graphSignals(input)
  const limit = Math.max(0, top)
  yield* Console.log(json ? JSON.stringify(graphReport(signals, limit), null, 2) : graphText(signals, limit))
})
