/** A value made on first use and kept: for what a scan may never need (an index, a resolver). */
export const lazy = <A>(make: () => A): () => A => {
  let value: A | undefined
  return () => (value ??= make())
}
