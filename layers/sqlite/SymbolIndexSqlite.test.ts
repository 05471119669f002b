import { Layer } from "effect"
import { contract } from "../contracts/SymbolIndex.contract.ts"
import * as SymbolIndexSqlite from "./SymbolIndexSqlite.ts"
import { coldBuild, seeded } from "./testing/Fixtures.ts"

contract("sqlite", (chunks) => SymbolIndexSqlite.layer.pipe(Layer.provide(seeded(coldBuild(chunks)))))
