import { Layer } from "effect"
import { makeChunk } from "../contracts/ChunkFixtures.ts"
import { contract } from "../contracts/GraphStore.contract.ts"
import * as GraphStoreSqlite from "./GraphStoreSqlite.ts"
import { coldBuild, seeded } from "./testing/Fixtures.ts"

// The writer takes edges only from notes it holds: one chunk for each source note.
contract("sqlite", (edges) => {
  const from = [...new Set(edges.map((edge) => edge.from))]
  const chunks = from.map((note) => makeChunk({ id: `${note}#lead` }))
  return GraphStoreSqlite.layer.pipe(Layer.provide(seeded(coldBuild(chunks, { relations: { from, edges } }))))
})
