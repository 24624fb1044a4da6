// Bulk loads whose connection stops moving. A target whose network path goes dark (a partition, a
// black-holed proxy, a server gone without closing its sockets) leaves a COPY or LOAD DATA waiting
// for its socket to drain, and TCP keep-alive notices only after minutes. While a load runs, its
// socket must see traffic either way at least every `idleMs`; when it does not, it is destroyed with
// a StalledError, which fails the load (and the driver drops the connection).
import type { Socket } from 'node:net';

/** The `code` of a StalledError; the dialects' error mappers read it as a lost connection. */
export const STALLED = 'ESTALLED';

export class StalledError extends Error {
  readonly code = STALLED;

  constructor(idleMs: number) {
    super(`nothing went to or came from the target database for ${idleMs / 1000} s during a load: its connection was given up as lost`);
    this.name = 'StalledError';
  }
}

/** Runs `work` (which uses `socket`), failing it when the socket sees no traffic for `idleMs` (0: never). */
export async function watchStall<T>(socket: Socket | undefined, idleMs: number | undefined, work: () => Promise<T>): Promise<T> {
  if (!socket || !idleMs || idleMs <= 0) return work();
  // Node resets a socket's timeout on every read and every write it starts: a load that waits for
  // the socket to drain starts none, so the timeout runs out.
  const stalled = () => socket.destroy(new StalledError(idleMs));
  socket.setTimeout(idleMs);
  socket.on('timeout', stalled);
  try {
    return await work();
  } finally {
    socket.off('timeout', stalled);
    if (!socket.destroyed) socket.setTimeout(0);
  }
}
