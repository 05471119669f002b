/**
 * A string cut from a larger one, copied so it no longer holds on to that one. V8 keeps a
 * substring of 13 or more characters as a view into its parent, so one exported name or evidence
 * excerpt would keep its whole source file in memory for as long as the snapshot lives: on a
 * 10,000-module repository, every source (35 MB) through a whole index build. Shorter substrings
 * are copies already. Concatenating and cutting again makes V8 flatten the pair into a fresh
 * string, of which the result is a view.
 */
export const detached = (text: string): string => (text.length < 13 ? text : `${text} `.slice(0, -1))
