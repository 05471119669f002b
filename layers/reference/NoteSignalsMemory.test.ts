import { contract } from "../contracts/NoteSignals.contract.ts"
import * as NoteSignalsMemory from "./NoteSignalsMemory.ts"

contract("memory", NoteSignalsMemory.layer)
