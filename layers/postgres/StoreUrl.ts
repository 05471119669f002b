/**
 * Where a store is: the embedded file, or a PostgreSQL URL. The URL's password is a secret: what
 * cairn prints names the server without it.
 */

/** Whether `store` names a PostgreSQL server rather than an index file. */
export const isPostgres = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store)

/** The URL as it may be shown: user, host, port and database, never the password. */
export const describeStore = (url: string): string => {
  try {
    const parsed = new URL(url)
    parsed.password = ""
    parsed.search = ""
    return parsed.toString()
  } catch {
    return "postgres://(unparsable URL)"
  }
}
