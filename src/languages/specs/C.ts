/** C: functions, prototypes, structs, unions, enums, typedefs and macros; `#include` of project headers resolved. */
import type { LanguageSpec } from "../LanguageSpec.ts"
import { C_LEADING, containerC, describeC, includes, resolveInclude } from "./CFamily.ts"

export const C: LanguageSpec = {
  id: "c",
  name: "C",
  extensions: [".c"],
  grammar: "tree-sitter-wasms/out/tree-sitter-c.wasm",
  leadingLine: C_LEADING,
  describe: describeC,
  container: containerC,
  imports: includes,
  resolve: resolveInclude,
  external: (specifier) => specifier.startsWith("<"),
  rankedRelations: []
}
