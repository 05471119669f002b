import { contract } from "../contracts/EmbeddingCache.contract.ts"
import * as EmbeddingCacheMemory from "./EmbeddingCacheMemory.ts"

contract("memory", EmbeddingCacheMemory.layer)
