/**
 * Worker-thread entry of `TrainingNode`: trains the latent semantic model on the texts it is sent,
 * answers with the model, then embeds whatever texts it is sent under that model, answering with
 * their vectors packed as float32 (as the index stores them) in one transferred buffer.
 */
import { parentPort } from "node:worker_threads"
import type { TextEncoderModel } from "../../src/index/HashingEmbedder.ts"
import * as Lsa from "../../src/index/LatentSemanticEmbedder.ts"

export type TrainingMessage =
  | { readonly train: ReadonlyArray<string> }
  | { readonly embed: ReadonlyArray<string> }

let model: Lsa.LsaModel | undefined
let encoder: TextEncoderModel | undefined

parentPort?.on("message", (message: TrainingMessage) => {
  if ("train" in message) {
    model = Lsa.train(message.train)
    parentPort!.postMessage({ model })
    return
  }
  encoder ??= Lsa.encoder(model!)
  const vectors = new Float32Array(message.embed.length * encoder.dimension)
  message.embed.forEach((text, i) => vectors.set(encoder!.embedOne(text), i * encoder!.dimension))
  parentPort!.postMessage({ vectors }, [vectors.buffer])
})
