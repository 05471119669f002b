import { contract } from "../contracts/SourceTree.contract.ts"
import * as SourceTreeMemory from "./SourceTreeMemory.ts"

contract("memory", (tree) => SourceTreeMemory.layer(tree.files, tree.revision === undefined ? {} : { revision: tree.revision }))
