import { contract } from "../contracts/SymbolIndex.contract.ts"
import * as SymbolIndexMemory from "./SymbolIndexMemory.ts"

contract("memory", SymbolIndexMemory.layer)
