/**
 * Command handlers loaded when their command runs. A command's flags and help are declared up
 * front, where `--help` and the parser read them; what it does lives in a module of its own that
 * `cairn --help`, and every other command, never load. This is most of what a call costs before it
 * answers: the index pipeline alone pulls in the parsers, the graph algorithms and the SQLite layers.
 */
import { Effect } from "effect"

/** A handler that imports `run` from its module the first time the command runs. */
export const lazily = <I, E, R>(load: () => Promise<{ readonly run: (input: I) => Effect.Effect<void, E, R> }>) =>
  (input: I): Effect.Effect<void, E, R> => Effect.flatMap(Effect.promise(load), (module) => module.run(input))
