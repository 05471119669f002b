/**
 * The command line as shipped: the pipelines' commands and the bench runner's. The bench lives in
 * eval/, which the pipelines may not import, so the two meet here, above both. `bin/cairn.js` runs
 * this file from a checkout; the build bundles it into `dist/cli/cairn.js` for the package.
 */
import { bench } from "../eval/BenchCommand.ts"
import { runCli } from "../pipelines/cli/main.ts"

runCli([bench])
