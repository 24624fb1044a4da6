// Entry point: read config, start the service, print the first-start key, stop cleanly on signals.
// Without DATABASE_URL the embedded PostgreSQL is started first and the service's modules load while
// it boots (service.ts is imported after that), so start-up costs the longer of the two, not their sum.
import pino from 'pino';
import { loadSettings } from './settings.ts';
import { startEmbeddedPostgres } from './store/embedded.ts';

const config = loadSettings();
const logger = pino({ level: config.logLevel });
const fail = (error: unknown): never => {
  console.error(`sds could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
};
let embedded: ReturnType<typeof startEmbeddedPostgres> | undefined;
if (!config.databaseUrl) {
  logger.info({ dataDir: config.dataDir }, 'starting embedded PostgreSQL');
  let launched: () => void = () => {};
  const running = new Promise<void>((resolve) => (launched = resolve));
  embedded = startEmbeddedPostgres(config.dataDir, (message) => logger.debug({ postgres: message }), launched);
  embedded.catch(fail);
  // Loading the service keeps the event loop busy for a while: its process must be running first.
  await Promise.race([running, embedded.then(() => {}, () => {})]);
}
const { startService } = await import('./service.ts');
const service = await startService(config, logger, { embedded }).catch(fail);

if (service.firstStartKey) {
  console.log(
    [
      '',
      'First start: created team "default" and its API key (shown only this once; keep it):',
      '',
      `  ${service.firstStartKey}`,
      '',
      `Try: curl -s ${service.url}/public/v1/projects -H "x-api-key: ${service.firstStartKey}"`,
      '',
    ].join('\n'),
  );
}
console.log(`sds is serving ${service.url} (API reference: ${service.url}/docs)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // Shutdown is ordered: stop accepting requests, finish in-flight ones and jobs, then the database.
  process.once(signal, () => {
    console.log(`${signal} received: shutting down`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  });
}
