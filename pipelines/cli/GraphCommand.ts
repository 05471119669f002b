/**
 * `cairn graph [--root DIR] [--snapshot FILE] [--json] [--dot] [--top N]`: the graph signals of a
 * repository: the documents to start reading from, the modules a change reaches furthest from,
 * the import cycles with every edge, and directories that behave like areas without being one.
 * `--dot` prints the areas and the imports between them as Graphviz DOT instead.
 */
import { Command, Flag } from "effect/cli"
import { lazily } from "./Lazy.ts"

const flags = {
  root: Flag.String("root").pipe(Flag.withDescription("Repository directory to scan"), Flag.withDefault(".")),
  snapshot: Flag.String("snapshot").pipe(
    Flag.withDescription("Read this snapshot (from `cairn snapshot --out`) instead of scanning --root"),
    Flag.optional
  ),
  json: Flag.Boolean("json").pipe(Flag.withDescription("Print the signals as JSON"), Flag.withDefault(false)),
  dot: Flag.Boolean("dot").pipe(Flag.withDescription("Print the areas and their imports as Graphviz DOT instead"), Flag.withDefault(false)),
  top: Flag.Int("top").pipe(Flag.withDescription("Documents and modules listed"), Flag.withDefault(10))
}

export type GraphInput = Command.Command.Config.Infer<typeof flags>

export const graph = Command.make("graph", flags, lazily(() => import("./GraphAction.ts"))).pipe(
  Command.withDescription("Graph signals: canonical documents, central modules, import cycles, area suggestions")
)
