/**
 * `npm run eval:calibrate`: fits the answerability floor on an eval run's results and reports how
 * the `low_confidence` gap separates unanswerable questions from answerable ones.
 *
 *   node eval/main.ts                              (the dev split; writes eval-results/)
 *   node eval/calibrate.ts [--results DIR] [--max-false-alarms 0.1]
 *
 * On a dev run it prints the floor that flags the most unanswerable questions while flagging at
 * most the allowed share of answerable ones; that value is `gapAnswerabilityFloor`'s default. On a
 * held-back run (`node eval/main.ts --split heldout --final`) the same command reports precision
 * and recall at the configured floor, which is the figure to quote. Adversarial questions are left
 * out: they probe robustness, not answerability.
 */
import { NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { fitFloor, type Rates, ratesAt, ratesOf, separation } from "./answerability.ts"
import { loadQuestions, SETS } from "./main.ts"
import { findPackageRoot } from "./PackageRoot.ts"
import { kindOf } from "./Question.ts"

interface Observed {
  readonly id: string
  readonly gaps: ReadonlyArray<{ readonly reason: string }>
  readonly answerability: { readonly score: number } | null
}

interface Item {
  readonly set: string
  readonly split: string
  readonly score: number
  readonly unanswerable: boolean
  readonly gap: boolean
}

const fail = (message: string): never => {
  process.stderr.write(`calibrate: ${message}\n`)
  process.exit(2)
}

const parse = (argv: ReadonlyArray<string>) => {
  const args = { results: join(findPackageRoot(import.meta.dirname), "eval-results"), maxFalseAlarms: 0.1 }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!
    const value = () => argv[++i] ?? fail(`${flag} needs a value`)
    if (flag === "--results") args.results = resolve(value())
    else if (flag === "--max-false-alarms") {
      const raw = value()
      args.maxFalseAlarms = Number(raw)
      if (!(args.maxFalseAlarms >= 0 && args.maxFalseAlarms <= 1)) fail(`--max-false-alarms takes a share in [0, 1], not ${raw}`)
    } else fail(`unknown flag ${flag}; see the header of eval/calibrate.ts`)
  }
  return args
}

/** Every judged observation of every set with results in `dir`. */
const itemsIn = Effect.fn("calibrate.items")(function*(dir: string) {
  const items: Array<Item> = []
  for (const set of SETS) {
    const file = join(dir, set.name, "results.json")
    if (!existsSync(file) || !existsSync(set.questions)) continue
    const byId = new Map((yield* loadQuestions(set.questions)).map(({ question }) => [question.id, question]))
    const results = JSON.parse(readFileSync(file, "utf8")) as { conditions: ReadonlyArray<{ observations: ReadonlyArray<Observed> }> }
    for (const o of results.conditions[0]?.observations ?? []) {
      const q = byId.get(o.id)
      if (q === undefined || kindOf(q) === "adversarial") continue
      if (o.answerability === null) fail(`${file} records no answerability: run node eval/main.ts again`)
      items.push({
        set: set.name,
        split: q.split,
        score: o.answerability!.score,
        unanswerable: kindOf(q) === "negative",
        gap: o.gaps.some((g) => g.reason === "low_confidence")
      })
    }
  }
  return items
})

const percent = (x: number) => `${(x * 100).toFixed(1)}%`
const line = (label: string, r: Rates) =>
  `${label.padEnd(26)} unanswerable flagged ${percent(r.recall).padStart(6)} (of ${r.unanswerable}), precision ${percent(r.precision).padStart(6)}, answerable flagged ${percent(r.falseAlarms).padStart(6)} (of ${r.answerable})`

if (import.meta.main) {
  const args = parse(process.argv.slice(2))
  const items = await Effect.runPromise(itemsIn(args.results).pipe(Effect.provide(NodeServices.layer)))
  if (items.length === 0) fail(`no results under ${args.results}: run node eval/main.ts first`)
  const splits = [...new Set(items.map((i) => i.split))]
  const floor = RetrievalConfig.defaults.gapAnswerabilityFloor
  process.stdout.write(`answerability on ${splits.join(" + ")}, ${items.length} questions; configured floor ${floor}\n\n`)
  const groups = [...new Set(items.map((i) => i.set))].map((set) => [set, items.filter((i) => i.set === set)] as const)
  for (const [set, group] of [...groups, ["all sets", items] as const]) {
    process.stdout.write(`${set}: separation ${separation(group).toFixed(3)}\n`)
    process.stdout.write(`  ${line(`score < ${floor}`, ratesAt(group, floor))}\n`)
    process.stdout.write(`  ${line("any low_confidence gap", ratesOf(group, (i) => i.gap))}\n`)
  }
  // A held-back run reports the configured floor only: fitting on it would spend it.
  if (splits.includes("heldout")) process.stdout.write("\nA held-back run: these are the figures to quote; no floor is fitted on it.\n")
  else {
    const fitted = fitFloor(items, args.maxFalseAlarms)
    process.stdout.write(`\nfitted floor (at most ${percent(args.maxFalseAlarms)} of answerable flagged): ${fitted}\n  ${line(`score < ${fitted}`, ratesAt(items, fitted))}\n`)
  }
}
