import type { RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A benchmark server listening on a free port: where it is, how many connections it took, how to stop it. */
export interface Listening {
  /** http://<host>:<port> */
  origin: string;
  /** TCP connections accepted so far (a client that reuses connections opens few). */
  connections: () => number;
  close: () => Promise<void>;
}

/** Serves `handler` (an express app or any request listener) on a free port of `host`. */
export async function listen(handler: RequestListener, host = '127.0.0.1'): Promise<Listening & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  let connections = 0;
  server.on('connection', () => connections++);
  return {
    server,
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
