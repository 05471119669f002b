import { contract } from "../contracts/IndexStore.contract.ts"
import * as IndexStoreMemory from "./IndexStoreMemory.ts"

contract("memory", IndexStoreMemory.layer)
