#!/usr/bin/env node
// The CLI is written in TypeScript and run directly by Node 24's type stripping. The bench command
// lives with the bench runner in eval/, outside the pipelines, so it is composed in here.
import * as NodeModule from "node:module"

// Node keeps the code it compiles in a cache on disk (under the system's temporary directory, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a later call starts in about
// two thirds of the time. It must be on before the modules below load.
NodeModule.enableCompileCache?.()

const { runCli } = await import("../pipelines/cli/main.ts")
const { bench } = await import("../eval/BenchCommand.ts")
runCli([bench])
