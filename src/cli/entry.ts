// The `sds` program (dist/cli.js, bin/sds.js): starts the worker threads `sds generate … --out`
// will use before loading the rest of the CLI (files/workers-ahead.ts), then runs the command line.
import { startWorkersAhead } from '../files/workers-ahead.ts';

startWorkersAhead(process.argv);
const { runCli } = await import('./main.ts');
runCli(process.argv);
