import { contract } from "../contracts/LexicalIndex.contract.ts"
import * as LexicalIndexMemory from "./LexicalIndexMemory.ts"

contract("memory", LexicalIndexMemory.layer)
