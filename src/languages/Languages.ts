/**
 * The languages cairn reads with tree-sitter, and which one a file is written in. TypeScript and
 * JavaScript are not here: oxc-parser reads them (faster, and measured; see docs/languages.md).
 */
import { extname } from "../source/Paths.ts"
import type { LanguageSpec } from "./LanguageSpec.ts"
import { Bash } from "./specs/Bash.ts"
import { C } from "./specs/C.ts"
import { Cpp } from "./specs/Cpp.ts"
import { CSharp } from "./specs/CSharp.ts"
import { Go } from "./specs/Go.ts"
import { Java } from "./specs/Java.ts"
import { Kotlin } from "./specs/Kotlin.ts"
import { Php } from "./specs/Php.ts"
import { Python } from "./specs/Python.ts"
import { Ruby } from "./specs/Ruby.ts"
import { Rust } from "./specs/Rust.ts"
import { Swift } from "./specs/Swift.ts"

/** In id order. */
export const LANGUAGES: ReadonlyArray<LanguageSpec> = [Bash, C, Cpp, CSharp, Go, Java, Kotlin, Php, Python, Ruby, Rust, Swift]

const byExtension = new Map<string, LanguageSpec>(LANGUAGES.flatMap((language) => language.extensions.map((extension) => [extension, language] as const)))
const byId = new Map<string, LanguageSpec>(LANGUAGES.map((language) => [language.id, language] as const))

/** Every extension a language here takes. */
export const LANGUAGE_EXTENSIONS: ReadonlySet<string> = new Set(byExtension.keys())

/** The language a file is written in, by its extension. */
export const languageOfPath = (path: string): LanguageSpec | undefined => byExtension.get(extname(path))

export const languageById = (id: string): LanguageSpec | undefined => byId.get(id)

/**
 * Relation kinds of code structure no measurement has adopted for ranking yet (docs/graph.md): they
 * are stored and listed beside search results, and move a ranking only where `adopted` names them
 * for the file's language (`typescript` for the files oxc-parser reads).
 */
const UNRANKED_KINDS: ReadonlySet<string> = new Set(["calls", "test_sibling"])

/**
 * Whether a relation of `kind` from the file at `path` may move a ranking: always for the files
 * this registry does not read (but for `UNRANKED_KINDS`); for a language here, only the kinds
 * `adopted` names for it, else those its spec names (the kinds a measurement adopted, docs/languages.md).
 */
export const mayMoveRanking = (path: string, kind: string, adopted: Readonly<Record<string, ReadonlyArray<string>>> = {}): boolean => {
  const language = languageOfPath(path)
  if (language === undefined) return !UNRANKED_KINDS.has(kind) || (adopted["typescript"]?.includes(kind) ?? false)
  return (adopted[language.id] ?? language.rankedRelations).includes(kind)
}
