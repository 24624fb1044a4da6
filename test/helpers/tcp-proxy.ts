// A TCP proxy on a fixed local port, to cut a database off and bring it back without touching the
// server behind it (a shared MariaDB cannot be stopped): `stop()` destroys every proxied connection and
// stops listening, so new connections are refused (ECONNREFUSED) as by a stopped server; `start()`
// listens on the same port again. `blackhole()` is the other kind of outage, a network path gone dark:
// every connection stays open but no byte moves either way (no reset, no close), until `restore()`.
import net from 'node:net';

export interface TcpProxy {
  /** The local port clients connect to; it stays the same across stop() and start(). */
  readonly port: number;
  /** Connections accepted since the proxy was created. */
  readonly accepted: number;
  /** Proxied connections open now. */
  readonly open: number;
  /** Destroys every proxied connection and refuses new ones. */
  stop(): Promise<void>;
  /** Accepts connections again. */
  start(): Promise<void>;
  /** Moves no more bytes on any connection, open or new, and closes none. */
  blackhole(): void;
  /** Moves bytes again. */
  restore(): void;
  /** Stops for good. */
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let port = 0;
  let server: net.Server | undefined;
  let dark = false;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  /** Bytes read while dark (a socket paused just then may still hand over what it had), sent on restore. */
  const held: Array<() => void> = [];

  /** Copies `from` to `to`, reading no more while `to` is full or the proxy is dark. */
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (dark) {
        from.pause();
        held.push(() => to.write(chunk));
      } else if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => dark || from.resume());
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        accepted++;
        const upstream = net.connect(target.port, target.host);
        track(client);
        track(upstream);
        // Either side failing or closing takes the other one down, like a dropped connection.
        const cut = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', cut).on('close', cut);
        upstream.on('error', cut).on('close', cut);
        forward(client, upstream);
        forward(upstream, client);
        if (dark) {
          client.pause();
          upstream.pause();
        }
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        listening.off('error', reject);
        port = (listening.address() as net.AddressInfo).port;
        server = listening;
        resolve();
      });
    });

  const stop = async () => {
    const listening = server;
    server = undefined;
    const closed = listening ? new Promise<void>((resolve) => listening.close(() => resolve())) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    get open() {
      return sockets.size;
    },
    stop,
    start: async () => {
      if (!server) await listen();
    },
    blackhole: () => {
      dark = true;
      for (const socket of sockets) socket.pause();
    },
    restore: () => {
      dark = false;
      for (const send of held.splice(0)) send();
      for (const socket of sockets) socket.resume();
    },
    close: stop,
  };
}
