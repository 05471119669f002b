/**
 * The exact counter cairn uses unless told otherwise: the WebAssembly build, which bench:pack
 * measured at about three times js-tiktoken's cold throughput with identical counts. js-tiktoken
 * (TokenCounterJs) stays as the pure-JavaScript fallback.
 */
export { counter, layer } from "./TokenCounterWasm.ts"
