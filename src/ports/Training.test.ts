import { Layer } from "effect"
import { contract } from "../../layers/contracts/Training.contract.ts"

// The default: on the calling fiber.
contract("in process", Layer.empty)
