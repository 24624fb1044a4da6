// Starts a worker thread of sds: from the TypeScript sources (development, tests) it registers tsx
// first, which Node does not carry into worker threads by itself; built JavaScript starts as it is.
import { workerData } from 'node:worker_threads';

const { module } = workerData;
if (module.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(module);
