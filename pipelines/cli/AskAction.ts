/** What `cairn ask` does (its flags are declared in AskCommand.ts, so this module loads only when it runs). */
import type { AskInput } from "./AskCommand.ts"
import { Console, Effect } from "effect"
import * as ContextPack from "../../src/domain/ContextPack.ts"
import * as RetrievalConfig from "../../src/RetrievalConfig.ts"
import { recall } from "../recall.ts"
import * as RepositoryConfig from "../repositoryConfig.ts"
import { recallShadowed } from "../shadowLog.ts"
import { answering, questionFrom } from "./Answering.ts"
import { renderText } from "./PackText.ts"
import { withStore } from "../indexLocation.ts"

const runHere = Effect.fn("cli.ask")(function*({ budget, explain, json, noRefresh, question, root, scope }: AskInput) {
  // The settings first: a bad file is reported before anything waits on standard input.
  const config = yield* RepositoryConfig.read(root)
  const text = yield* questionFrom(question)
  const index = yield* answering(root, noRefresh, config)
  const query = {
    text,
    budgetTokens: budget,
    explain,
    ...(scope.length > 0 ? { filters: { paths: scope } } : {})
  }
  const pack = config.shadow === undefined
    ? yield* recall(query).pipe(Effect.provide(index))
    : yield* recallShadowed(root, query, config.shadow.retrieval).pipe(Effect.provide(index))
  // The text view reads the question's words with the same rules retrieval did.
  yield* Console.log(json ? ContextPack.serialise(pack) : renderText(pack, yield* RetrievalConfig.resolve(config.retrieval ?? {})))
})

/** The command, against the store `--store` names, where it names one. */
export const run = (input: AskInput) => withStore(input.store)(runHere(input))
