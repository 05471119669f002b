import { contract } from "../contracts/IndexHealth.contract.ts"
import * as IndexHealthMemory from "./IndexHealthMemory.ts"

contract("memory", IndexHealthMemory.layerBuilt)
