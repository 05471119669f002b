// Records every module a process loads, by URL, into the file CAIRN_LOADED_MODULES names, when it exits.
import { registerHooks } from "node:module"
import { writeFileSync } from "node:fs"

const loaded = []
registerHooks({
  load(url, context, next) {
    loaded.push(url)
    return next(url, context)
  }
})
process.on("exit", () => writeFileSync(process.env.CAIRN_LOADED_MODULES, loaded.join("\n")))
