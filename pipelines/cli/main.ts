/**
 * The process entry point: the only caller of `NodeRuntime.runMain`. Extra subcommands come from
 * outside the pipelines (the bench runner lives in eval/, which the pipelines may not import); the
 * bin entry passes them in.
 *
 * Exit codes: 0 success; 1 a failure (bad input, an unreadable repository or index, a failed bench
 * gate), reported as one line on standard error naming the fix; `--debug` (or CAIRN_DEBUG=1) adds
 * the full cause. A usage error is reported by the command-line parser on standard error alone
 * (`UsagePresenter`), with a pointer to `--help` and exit 1.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Runtime } from "effect"
import { Command } from "effect/cli"
import { makeCairn, VERSION } from "./Cli.ts"
import * as UsagePresenter from "./UsagePresenter.ts"

const debug = process.argv.includes("--debug") || process.env.CAIRN_DEBUG === "1"
const argv = process.argv.filter((arg) => arg !== "--debug")

/** One line for people: the error's own message (every cairn error names its field and fix). */
const oneLine = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  const message = error instanceof Error ? error.message : String(error)
  const tag = typeof error === "object" && error !== null && "_tag" in error ? `${String((error as { _tag: unknown })._tag)}: ` : ""
  return `cairn: ${tag}${message.split("\n")[0]}`
}

/**
 * Ends the process once a command has succeeded and its output is handed over. Left to drain, a
 * one-shot call spent its last 15-25 ms on a garbage collection of a heap about to be dropped
 * (V8 schedules one as a task once the heap grows near its limit). Whatever a command started is
 * finished or closed by its scope before it succeeds; Node still writes its compile cache on the
 * way out. A failure exits through the runtime's own path.
 */
const exitOnceWritten: Runtime.Teardown = (exit, onExit) =>
  Runtime.defaultTeardown(exit, (code) => {
    onExit(code)
    // A write's callback runs once every earlier write is handed over, also where pipes are asynchronous.
    if (code === 0) process.stdout.write("", () => process.stderr.write("", () => process.exit(0)))
  })

export const runCli = <E>(extra: ReadonlyArray<Command.Command<any, any, any, E, NodeServices.NodeServices>> = []): void =>
  Command.runWith(makeCairn(extra), { version: VERSION })(argv.slice(2)).pipe(
    Effect.tapCause((cause) =>
      Cause.hasInterruptsOnly(cause) || UsagePresenter.isPresented(Cause.squash(cause))
        ? Effect.void
        : Effect.sync(() => process.stderr.write(`${debug ? Cause.pretty(cause) : oneLine(cause)}\n`))
    ),
    Effect.provide([NodeServices.layer, UsagePresenter.layer]),
    (program) => NodeRuntime.runMain(program, { disableErrorReporting: true, teardown: exitOnceWritten })
  )
