// A worker thread of config work (config-work.ts): validates schema configs, makes previews and
// compares runtime documents off the server's event loop, one task at a time. It loads the validator
// and the generator once, says it is ready, then answers each task with its result or the AppError it
// threw (as plain data).
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { validateConfig } from '../config/validate-config.ts';
import { computePreview } from './schema-preview.ts';
import { compareRuntimeApisSlice } from './api-changes.ts';
import type { ConfigTask, ConfigTaskReply } from './config-work.ts';

const port = parentPort!;
port.on('message', (message: ConfigTask) => port.postMessage(answer(message)));
port.postMessage({ ready: true });

function answer(message: ConfigTask): ConfigTaskReply {
  try {
    switch (message.task) {
      case 'validate':
        return { id: message.id, result: validateConfig(message.config) };
      case 'preview':
        return { id: message.id, result: computePreview(message.body) };
      case 'apiChanges': {
        const { source, from, to, baseUrl } = message.comparison;
        return { id: message.id, result: compareRuntimeApisSlice(source, from, to, baseUrl, message.start, message.budgetMs, message.mayDefer) };
      }
    }
  } catch (error) {
    if (error instanceof AppError) return { id: message.id, error: { status: error.status, message: error.message, details: error.details } };
    return { id: message.id, fault: error instanceof Error ? error.message : String(error) };
  }
}
