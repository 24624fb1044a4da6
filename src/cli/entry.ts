// The `sds` program (dist/cli.js, bin/sds.js): starts the worker threads `sds generate … --out`
// will use before loading the rest of the CLI (files/workers-ahead.ts), then runs the command line.
import { releaseWorkersAhead, startWorkersAhead } from '../files/workers-ahead.ts';

startWorkersAhead(process.argv);
const { runCli } = await import('./main.ts');
await runCli(process.argv);
// Workers started for a command that ended without taking them would keep the process alive.
await releaseWorkersAhead();
