// The message loop of a range worker thread (range-workers.ts), shared by the file workers and the
// database load's workers: the setup arrives first and is served (its plan made, perhaps
// asynchronously); range and assume messages that arrive meanwhile wait, then go to the handler in
// order, and the thread says it is ready.
import { parentPort } from 'node:worker_threads';
import { mergedDefinitions } from './faker-locales.ts';
import type { AssumeMessage, RangeTask, SetupMessage } from './range-workers.ts';

export type RangeHandler = (message: RangeTask | AssumeMessage) => void;

/** Serves this worker thread's messages: `serve` turns the setup into the handler of every later message. */
export function serveRangeTasks<Setup>(serve: (setup: Setup) => RangeHandler | Promise<RangeHandler>): void {
  // Every locale chain ends in en and base (faker-pool.ts, localeChain): loaded while the worker
  // waits for its setup, they are not loaded during its first range.
  mergedDefinitions('en');
  mergedDefinitions('base');

  let handle: RangeHandler | undefined;
  const waiting: (RangeTask | AssumeMessage)[] = [];
  parentPort!.on('message', (message: SetupMessage<Setup> | RangeTask | AssumeMessage) => {
    if ('setup' in message) {
      void Promise.resolve(serve(message.setup)).then((handler) => {
        handle = handler;
        for (const queued of waiting.splice(0)) handler(queued);
        parentPort!.postMessage({ ready: true });
      });
    } else if (handle) handle(message);
    else waiting.push(message);
  });
}
