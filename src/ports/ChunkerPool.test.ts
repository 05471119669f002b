import { Layer } from "effect"
import { contract } from "../../layers/contracts/ChunkerPool.contract.ts"
import * as TokenCounterDefault from "../../layers/tokens/TokenCounterDefault.ts"
import { ChunkerPool, inProcessFew } from "./ChunkerPool.ts"

// The default: on the calling fiber.
contract("in process", TokenCounterDefault.layer)
contract("in process, each file parsed alone", Layer.merge(Layer.succeed(ChunkerPool, inProcessFew), TokenCounterDefault.layer))
