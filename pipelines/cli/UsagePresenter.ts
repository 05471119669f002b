/**
 * Where the command-line parser's output goes. A usage error (a bad flag value, an unknown flag or
 * subcommand) is one line per error on standard error and a pointer to `--help`, and nothing on
 * standard output, so a `--json` consumer never reads help text as its answer. Help asked for, and
 * the version, still print to standard output.
 */
import { Console } from "effect"
import { CliOutput } from "effect/cli"

const usageLines = (event: CliOutput.Presenter.InvalidInvocation): string => {
  const command = event.commandPath.join(" ")
  const errors = event.errors.map((error) => `${command}: ${error.message.split("\n")[0]}`)
  return [...errors, `run '${command} --help' for usage`].join("\n")
}

export const layer = CliOutput.layerPresenter({
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Console.error(usageLines(event))
      : CliOutput.defaultPresenter.present(event)
})

/** The parser's signal that it has presented help or a usage error itself; nothing more to print. */
export const isPresented = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "ShowHelp"

