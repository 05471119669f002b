#!/usr/bin/env node
// The CLI is written in TypeScript and run directly by Node 24's type stripping.
import "../pipelines/cli/main.ts"
