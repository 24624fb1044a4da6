// `--help` for the benchmark scripts: print the usage and exit before anything connects or loads.

/** Prints `usage` and exits 0 when the arguments ask for help (`--help`, `-h`). */
export function answerHelp(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.includes('--help') && !argv.includes('-h')) return;
  console.log(usage.trim());
  process.exit(0);
}
