import { contract } from "../contracts/CandidateStore.contract.ts"
import * as CandidateStoreMemory from "./CandidateStoreMemory.ts"

contract("memory", CandidateStoreMemory.layer)
