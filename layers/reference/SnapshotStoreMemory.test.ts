import { contract } from "../contracts/SnapshotStore.contract.ts"
import * as SnapshotStoreMemory from "./SnapshotStoreMemory.ts"

contract("memory", SnapshotStoreMemory.layer)
