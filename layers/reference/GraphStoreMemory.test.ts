import { contract } from "../contracts/GraphStore.contract.ts"
import * as GraphStoreMemory from "./GraphStoreMemory.ts"

contract("memory", GraphStoreMemory.layer)
