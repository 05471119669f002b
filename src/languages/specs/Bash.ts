/** Bash and POSIX shell: functions; `source` and `.` of a file path resolve beside the script. */
import { dirname, join, normalize } from "../../source/Paths.ts"
import type { LanguageSpec, Node, WrittenImport } from "../LanguageSpec.ts"
import { unquoted } from "../LanguageSpec.ts"

const imports = (node: Node): ReadonlyArray<WrittenImport> => {
  if (node.type !== "command") return []
  const name = node.childForFieldName("name")?.text
  const argument = node.childForFieldName("argument")
  if ((name !== "source" && name !== ".") || argument === null) return []
  // `"$(dirname "$0")/lib.sh"` names the script's own directory: the literal tail is the path.
  const written = unquoted(argument.text)
  const path = written.includes("$") ? written.replace(/^.*[)}]\/?/, "") : written
  return path === "" || path.includes("$") ? [] : [{ specifier: path, kind: "requires" }]
}

export const Bash: LanguageSpec = {
  id: "bash",
  name: "Bash",
  extensions: [".sh", ".bash"],
  grammar: "@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm",
  leadingLine: /^\s*#(?!!)/,
  describe: (node) => {
    if (node.type !== "function_definition") return undefined
    const name = node.childForFieldName("name")?.text
    return name === undefined ? undefined : { kind: "function", name, exported: true, body: node.childForFieldName("body") }
  },
  imports,
  resolve: (from, specifier, context) => {
    if (specifier.startsWith("/")) return []
    const path = normalize(join(dirname(from), specifier))
    return path !== undefined && context.modules.has(path) ? [path] : []
  },
  external: () => false,
  rankedRelations: []
}
