// Writing an operation's reply with plain node:http: a JSON body, or a streamed file. The Express
// application and the runtime router both answer through these.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from '../operation.ts';

/**
 * What res.json writes here (no ETag, no Last-Modified: never a 304), without its steps that cost a
 * measurable share of a runtime read: Content-Type and charset parsed and formatted anew, the status
 * checked, freshness computed.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export interface StreamOptions {
  /** Aborted when the server shuts down: the stream stops. */
  shutdown?: AbortSignal;
  /** Longest the client may take nothing before the answer is cut (0: no limit). */
  writeTimeoutMs?: number;
  /** Told what cut an answer under way (the access log records it). */
  failed: (error: unknown) => void;
}

/**
 * Writes a streamed file answer (a table export). The first piece is read before the status goes
 * out, so a query that fails at once still answers with its error; later, the client's pace sets the
 * reading (a full socket waits for 'drain'), a client that goes away stops it (the database cursor
 * closes), and a failure cuts the connection, as a truncated file must not look complete. A client
 * that takes nothing for `writeTimeoutMs` (0: no limit) is cut the same way, so that it cannot hold
 * a database connection of the export pool by not reading.
 */
export async function streamFile(req: IncomingMessage, res: ServerResponse, status: number, stream: NonNullable<Reply['stream']>, options: StreamOptions): Promise<void> {
  const { shutdown, writeTimeoutMs = 0 } = options;
  const pieces = stream.chunks[Symbol.asyncIterator]();
  const first = await pieces.next();
  res.statusCode = status;
  res.setHeader('Content-Type', stream.contentType);
  let gone = false;
  const stop = () => (gone = true);
  req.on('close', stop);
  shutdown?.addEventListener('abort', stop, { once: true });
  try {
    for (let piece = first; !piece.done && !gone; piece = await pieces.next()) {
      if (!res.write(piece.value) && !(await waitForDrain(res, writeTimeoutMs))) {
        throw new Error(`the client took no data for ${writeTimeoutMs} ms (SDS_EXPORT_WRITE_TIMEOUT_MS): export cut`);
      }
    }
    if (gone) await pieces.return?.();
    else res.end();
  } catch (error) {
    await pieces.return?.().catch(() => {});
    options.failed(error instanceof Error ? { name: error.name, message: error.message } : error);
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    req.off('close', stop);
    shutdown?.removeEventListener('abort', stop);
  }
}

/**
 * Resolves when the response can take more, or when its connection is gone (true); or to false when
 * neither happened within `timeoutMs` (0: wait as long as it takes).
 */
function waitForDrain(res: ServerResponse, timeoutMs = 0): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve(drained);
    };
    const done = () => finish(true);
    const timer = timeoutMs > 0 ? setTimeout(() => finish(false), timeoutMs) : undefined;
    res.on('drain', done);
    res.on('close', done);
  });
}
