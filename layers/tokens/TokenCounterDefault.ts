/**
 * The exact counter cairn uses unless told otherwise: the TypeScript byte-pair counter, which starts
 * several times faster than the WebAssembly encoder and counts the same (TokenCounterBpe). The
 * WebAssembly (TokenCounterWasm) and js-tiktoken (TokenCounterJs) layers stay for comparison.
 */
export { counter, layer } from "./TokenCounterBpe.ts"
