import { Layer } from "effect"
import { contract } from "../contracts/CandidateStore.contract.ts"
import * as CandidateStoreSqlite from "./CandidateStoreSqlite.ts"
import { coldBuild, seeded } from "./testing/Fixtures.ts"

contract("sqlite", (chunks) => CandidateStoreSqlite.layer.pipe(Layer.provide(seeded(coldBuild(chunks)))))
