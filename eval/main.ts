/**
 * `npm run eval`: the question sets against their corpora, the gate, and the reports.
 *
 *   node eval/main.ts [--gate] [--set NAME]... [--conditions a,b | --ablations] [--split dev|heldout --final]
 *                     [--output DIR] [--corpora DIR] [--config JSON]
 *   node eval/main.ts --validate [--set NAME]...
 *
 * `--conditions` also takes the model conditions `http-embedder` and `http-reranker`, over an endpoint
 * named in `CAIRN_EVAL_EMBEDDER` / `CAIRN_EVAL_RERANKER` (eval/modelConditions.ts, docs/models.md).
 *
 * `--validate` checks the question files against their corpus (ids, paths, mustContain lines, decoys)
 * and runs no retrieval, so a set can be written and checked without seeing what recall returns.
 *
 * The shared corpora are found under `--corpora` (default `$CAIRN_CORPORA`, else `../shared/corpora`
 * beside the repository); where they are absent the run says so and runs the sets it has. Without
 * `--gate` the run reports and exits 0, and says that it was not gated.
 *
 * From an installed package there is no repository: the question sets and the bundled corpus come
 * from the package, `cairn-self` is skipped (its corpus is the sources, which are not shipped), and
 * the output and `../shared/corpora` are taken from the current directory instead.
 */
import { NodeServices } from "@effect/platform-node"
import { Effect, FileSystem, Path } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import * as RetrievalConfig from "../src/RetrievalConfig.ts"
import { BASELINES, skippedLine } from "./baselines.ts"
import { CONDITIONS, type Condition, conditionNamed } from "./conditions.ts"
import { MODEL_CONDITIONS, modelCondition } from "./modelConditions.ts"
import type { EvalCorpus } from "./Corpus.ts"
import { DEFAULT_BUDGET_TOKENS, gateChecks, type GateCheck } from "./gates.ts"
import { type CorpusSpec, loadCorpus } from "./loadCorpus.ts"
import { findPackageRoot, isCheckout } from "./PackageRoot.ts"
import { deletedContentProbe, emptyKnowledgeBaseProbes } from "./probes.ts"
import { decodeQuestionFile } from "./Question.ts"
import { reportMarkdown, resultsJson } from "./report.ts"
import { type LoadedQuestion, runBench } from "./run.ts"
import { validate } from "./validate.ts"

const repository = findPackageRoot(import.meta.dirname)
const checkout = isCheckout(repository)
/**
 * Where the output goes and the shared corpora are looked for beside: the checkout, so a run from a
 * subfolder never writes reports into the `cairn-self` corpus; else the current directory, never
 * inside node_modules.
 */
const workspace = checkout ? repository : process.cwd()

interface SetSpec {
  readonly name: string
  readonly questions: string
  readonly corpus: (corpora: string) => CorpusSpec
  /** Why the corpus is absent from this install (the set is then skipped), or undefined when it is here. */
  readonly absent: (spec: CorpusSpec) => string | undefined
}

/** What .gitignore keeps out of a checkout, as the scan would skip it. */
const IGNORED_IN_CHECKOUT = ["node_modules/", "dist/", ".cairn/", "tmp/", "bench-results/", "eval-results/", "scratch/"]

/** The folders `cairn.config.json` excludes from discovery (folder patterns only, as the loader reads them). */
const configuredExcludes = (root: string): ReadonlyArray<string> => {
  const file = join(root, "cairn.config.json")
  if (!existsSync(file)) return []
  const config = JSON.parse(readFileSync(file, "utf8")) as { discovery?: { exclude?: ReadonlyArray<string> } }
  return config.discovery?.exclude ?? []
}

const teamKb = join(repository, "eval/corpora/team-kb")
export const SETS: ReadonlyArray<SetSpec> = [
  {
    name: "team-kb",
    questions: join(repository, "eval/questions/team-kb"),
    absent: () => undefined,
    corpus: () => ({
      name: "team-kb",
      root: teamKb,
      exclude: ["README.md"],
      anchor: (JSON.parse(readFileSync(join(teamKb, "corpus.json"), "utf8")) as { anchor: string }).anchor,
      conflictsJson: join(teamKb, "conflicts.json"),
      gapsJson: join(teamKb, "gaps.json")
    })
  },
  {
    // rust-lang/rustc-dev-guide at 2cbf0434 (src/**/*.md, src/ dropped); provenance in eval/corpora/rustc-dev-guide.md.
    // No history file: every note is dated at the snapshot commit.
    name: "rustc-dev-guide",
    questions: join(repository, "eval/questions/rustc-dev-guide"),
    absent: () => undefined,
    corpus: () => ({
      name: "rustc-dev-guide",
      root: join(repository, "eval/corpora/rustc-dev-guide"),
      anchor: "2026-08-22T17:33:59+02:00"
    })
  },
  {
    // This repository as `cairn index` reads it here: code, docs, tests, benches and the eval
    // runner, without what .gitignore and cairn.config.json leave out (the bundled corpora are
    // other organisations' knowledge; the question files state the answers in their notes). Its history gives the ages when it is a git work tree.
    name: "cairn-self",
    questions: join(repository, "eval/questions/cairn-self"),
    absent: (spec) => (checkout ? undefined : `corpus not found: the package at ${spec.root} ships no sources to index (run from a checkout)`),
    corpus: () => ({
      name: "cairn-self",
      root: repository,
      includeCode: true,
      exclude: [...IGNORED_IN_CHECKOUT, ...configuredExcludes(repository)]
    })
  },
  ...["sourcegraph-handbook", "govuk-developer-docs"].map((name): SetSpec => ({
    name,
    questions: join(repository, `eval/questions/${name}`),
    absent: (spec) => (existsSync(spec.root) ? undefined : `corpus not found at ${spec.root} (pass --corpora DIR or set CAIRN_CORPORA)`),
    corpus: (corpora) => ({ name, root: join(corpora, name), historyTsv: join(corpora, `${name}.history.tsv`) })
  }))
]

export interface Args {
  readonly gate: boolean
  readonly validateOnly: boolean
  readonly sets: ReadonlyArray<string>
  readonly conditions: ReadonlyArray<Condition>
  readonly split: "dev" | "heldout"
  readonly final: boolean
  readonly output: string
  readonly corpora: string
  readonly overrides: unknown
}

const fail = (message: string): never => {
  process.stderr.write(`eval: ${message}\n`)
  process.exit(2)
}

export const parseArgs = (argv: ReadonlyArray<string>): Args => {
  const args = { gate: false, validateOnly: false, sets: [] as Array<string>, conditions: ["full"], split: "dev" as "dev" | "heldout", final: false, output: join(workspace, "eval-results"), corpora: process.env.CAIRN_CORPORA ?? resolve(workspace, "../shared/corpora"), overrides: undefined as unknown }
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!
    const value = () => argv[++i] ?? fail(`${flag} needs a value`)
    if (flag === "--gate") args.gate = true
    else if (flag === "--validate") args.validateOnly = true
    else if (flag === "--final") args.final = true
    else if (flag === "--set") args.sets.push(value())
    else if (flag === "--conditions") args.conditions = value().split(",")
    else if (flag === "--ablations") args.conditions = CONDITIONS.map((c) => c.name)
    else if (flag === "--split") {
      const split = value()
      if (split !== "dev" && split !== "heldout") fail(`--split takes dev or heldout, not ${split}`)
      args.split = split as "dev" | "heldout"
    } else if (flag === "--output") args.output = resolve(value())
    else if (flag === "--corpora") args.corpora = resolve(value())
    else if (flag === "--config") {
      const raw = value()
      try {
        args.overrides = JSON.parse(raw)
      } catch {
        fail(`--config takes JSON, got ${raw}`)
      }
    } else fail(`unknown flag ${flag}; see the header of eval/main.ts`)
  }
  if (args.split === "heldout" && !args.final) fail("the heldout split is spent once, at the end: pass --final to spend it")
  const conditions = args.conditions.map((name) => {
    const model = conditionNamed(name) ?? modelCondition(name)
    if (typeof model === "string") return fail(model)
    return model ?? fail(`unknown condition ${name}; known: ${[...CONDITIONS.map((c) => c.name), ...MODEL_CONDITIONS].join(", ")}`)
  })
  const unknownSet = args.sets.find((s) => !SETS.some((set) => set.name === s))
  if (unknownSet !== undefined) fail(`unknown set ${unknownSet}; known: ${SETS.map((s) => s.name).join(", ")}`)
  return { ...args, conditions }
}

/** Every question file of a set, sorted, decoded; an undecodable file is an error, not a skip. */
export const loadQuestions = Effect.fn("main.loadQuestions")(function*(folder: string) {
  const files = readdirSync(folder).filter((f) => f.endsWith(".json")).sort()
  const loaded: Array<LoadedQuestion> = []
  for (const file of files) {
    const questions = yield* decodeQuestionFile(JSON.parse(readFileSync(join(folder, file), "utf8")))
    for (const question of questions) loaded.push({ file, question })
  }
  return loaded
})

const withOverrides = (conditions: ReadonlyArray<Condition>, overrides: unknown): ReadonlyArray<Condition> =>
  overrides === undefined
    ? conditions
    : conditions.map((c) => ({ ...c, options: { ...c.options, config: { ...(c.options.config as object ?? {}), ...(overrides as object) } } }))

export const runEval = Effect.fn("main.runEval")(function*(args: Args) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    let failed = false
    // Every set hits the same missing packages: say so the first time only.
    const announced = new Set<string>()
    const chosen = SETS.filter((set) => args.sets.length === 0 || args.sets.includes(set.name))
    for (const set of chosen) {
      const spec = set.corpus(args.corpora)
      if (!(yield* fs.exists(set.questions))) {
        process.stdout.write(`${set.name}: no question set at ${set.questions}; skipped\n`)
        continue
      }
      const absent = set.absent(spec)
      if (absent !== undefined) {
        process.stdout.write(`${set.name}: ${absent}; skipped\n`)
        continue
      }
      const started = performance.now()
      const corpus: EvalCorpus = yield* loadCorpus(spec)
      const all = yield* loadQuestions(set.questions)
      const validation = validate(all, corpus)
      if (validation.errors.length > 0) {
        process.stdout.write(`${set.name}: ${validation.errors.length} question errors\n${validation.errors.map((e) => `  ${e}`).join("\n")}\n`)
        failed = true
        continue
      }
      if (args.validateOnly) {
        process.stdout.write(`${set.name}: ${all.length} questions valid; ${validation.warnings.length} warnings${validation.warnings.map((w) => `\n  ${w}`).join("")}\n`)
        continue
      }
      const questions = all.filter((q) => q.question.split === args.split)
      const bench = yield* runBench({
        corpus,
        questions,
        conditions: withOverrides(args.conditions, args.overrides),
        budgetTokens: DEFAULT_BUDGET_TOKENS,
        baselines: BASELINES,
        onProgress: ({ condition, done, total }) => {
          if (done === total || done % 25 === 0) process.stderr.write(`${set.name} ${condition}: ${done}/${total}\n`)
        }
      })
      const unannounced = bench.skippedBaselines.filter((s) => !announced.has(s.name))
      if (unannounced.length > 0) {
        for (const s of unannounced) announced.add(s.name)
        process.stdout.write(`baselines skipped, their optional package not installed: ${skippedLine(unannounced)}\n`)
      }
      let gate: ReadonlyArray<GateCheck> | undefined
      if (args.gate) {
        const probes = [...(yield* emptyKnowledgeBaseProbes), yield* deletedContentProbe(corpus, questions.map((q) => q.question))]
        gate = gateChecks({
          corpus,
          declaredAnchor: spec.anchor === undefined ? corpus.anchor : Date.parse(spec.anchor),
          result: bench.conditions[0]!,
          budgetTokens: bench.budgetTokens,
          overrides: args.overrides,
          questionsOnDisk: questions.length,
          supersededNotes: new Set(corpus.chunks.filter((c) => c.status === "superseded" || c.provenance.state === "superseded").map((c) => c.noteId)),
          probes
        })
        if (!gate.every((c) => c.pass)) failed = true
      }
      const outDir = path.join(args.output, set.name)
      mkdirSync(outDir, { recursive: true })
      const command = `node eval/main.ts${args.gate ? " --gate" : ""} --set ${set.name} --split ${args.split}`
      writeFileSync(path.join(outDir, "results.json"), resultsJson(bench, gate, { ...RetrievalConfig.defaults, overrides: args.overrides ?? null }))
      writeFileSync(path.join(outDir, "report.md"), reportMarkdown(bench, gate, { command, split: args.split }))
      const s = bench.conditions[0]!.summary
      const gateWord = gate === undefined ? "not gated" : gate.every((c) => c.pass) ? "gate PASS" : `gate FAIL (${gate.filter((c) => !c.pass).map((c) => c.name).join(", ")})`
      process.stdout.write(
        `${set.name} [${args.split}, ${questions.length} questions, ${((performance.now() - started) / 1000).toFixed(1)} s]: ` +
        `hit@5 ${s.ranking.hitAt5.toFixed(4)} p@1 ${s.ranking.precisionAt1.toFixed(4)} p@5 ${s.ranking.precisionAt5.toFixed(4)} ` +
        `MRR ${s.ranking.mrr.toFixed(4)} nDCG@10 ${s.ranking.ndcgAt10.toFixed(4)} CCH_r ${s.verdicts.cch.toFixed(4)} ` +
        `median tokens ${s.tokens.median} — ${gateWord}; ${validation.warnings.length} warnings; report ${path.join(outDir, "report.md")}\n`
      )
    }
    return failed
  })

if (import.meta.main) {
  const args = parseArgs(process.argv.slice(2))
  const failed = await Effect.runPromise(runEval(args).pipe(Effect.provide(NodeServices.layer)))
  if (args.validateOnly) process.exit(failed ? 1 : 0)
  if (!args.gate) process.stdout.write("Not gated: reported only, exit 0. Run with --gate to enforce the floors.\n")
  process.exit(args.gate && failed ? 1 : 0)
}

