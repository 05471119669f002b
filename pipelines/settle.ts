/**
 * The Promise APIs' one rule for failures: reject with the tagged error itself, never a wrapper,
 * so callers can branch on `error._tag`.
 */
import { Cause, Exit } from "effect"

export const settle = async <A>(exit: Promise<Exit.Exit<A, unknown>>): Promise<A> => {
  const result = await exit
  if (Exit.isSuccess(result)) return result.value
  throw Cause.squash(result.cause)
}
