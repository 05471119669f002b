import { contract } from "../contracts/CoChange.contract.ts"
import * as CoChangeMemory from "./CoChangeMemory.ts"

contract("memory", (commits) => CoChangeMemory.layer(commits === undefined ? undefined : CoChangeMemory.historyOf([...commits].reverse())))
