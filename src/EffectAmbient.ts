/**
 * Names Effect's own declarations use from the DOM library. Effect 4.1's `Schema.d.ts` reaches
 * `crypto/KeyFormat.d.ts`, which names the global `JsonWebKey`; a Node project's `lib` (es2022,
 * no "dom") has none, so with `skipLibCheck: false` every importer of Effect fails to type-check.
 * An empty interface supplies the name and merges with the DOM's where that library is present.
 * The package's entry points import this file, so their importers get it too.
 */
declare global {
  interface JsonWebKey {}
}

export {}
