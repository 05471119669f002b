/**
 * Port: one state of the index for the length of a question. Every read inside `within` sees the
 * same commit, so a commit that lands meanwhile (another process's rebuild) is seen whole by the
 * next question and not at all by this one: the health a pack reports, its legs and its claims
 * come from one build. Optional: a backend whose reads cannot straddle a commit (the in-memory
 * reference) provides none.
 */
import { Context, Effect, Option } from "effect"

export class ConsistentRead extends Context.Service<ConsistentRead, {
  /** `effect`, every read of the index inside it from one commit. */
  within<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R>
}>()("cairn/ports/ConsistentRead") {}

/** `effect` inside one state of the index, where the index offers it; as it is otherwise. */
export const consistently = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.serviceOption(ConsistentRead), Option.match({ onNone: () => effect, onSome: (read) => read.within(effect) }))
