import { contract } from "../contracts/VectorIndex.contract.ts"
import * as VectorIndexMemory from "./VectorIndexMemory.ts"

contract("memory", VectorIndexMemory.layer)
