// Entry point: read config, start the service, print the first-start key, stop cleanly on signals.
import { loadConfig } from './config.ts';
import { startService } from './service.ts';

const config = loadConfig();
const service = await startService(config).catch((error: unknown) => {
  console.error(`sds could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

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
