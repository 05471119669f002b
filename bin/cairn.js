#!/usr/bin/env node
// The CLI is written in TypeScript and run directly by Node 24's type stripping. The bench command
// lives with the bench runner in eval/, outside the pipelines, so it is composed in here.
import { runCli } from "../pipelines/cli/main.ts"
import { bench } from "../eval/BenchCommand.ts"

runCli([bench])
