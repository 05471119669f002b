import { Layer } from "effect"
import { contract } from "../../layers/contracts/AnalyzerPool.contract.ts"

// The default: on the calling fiber.
contract("in process", Layer.empty)
