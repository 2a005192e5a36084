'use strict';
// Runs the embedded PGlite (PostgreSQL compiled to WebAssembly) and its socket server on a
// worker thread, so queries never block the HTTP/gRPC event loop. Started by embedded-postgres.ts.
// Plain JavaScript on purpose: it runs outside any TypeScript loader.
const { parentPort, workerData } = require('node:worker_threads');

async function main() {
  const { PGlite } = require('@electric-sql/pglite');
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
  const db = await PGlite.create(workerData.pgDataDir);
  const server = new PGLiteSocketServer({
    db,
    path: workerData.socketPath,
    maxConnections: workerData.maxConnections,
  });
  await server.start();
  parentPort.on('message', (message) => {
    if (message && message.type === 'stop') {
      (async () => {
        await server.stop();
        await db.close();
      })().then(
        () => parentPort.postMessage({ type: 'stopped' }),
        (error) => parentPort.postMessage({ type: 'stopped', error: String(error && error.message) }),
      );
    }
  });
  parentPort.postMessage({ type: 'ready' });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'failed', message: String(error && error.message), stack: error && error.stack });
});
