'use strict';
// Runs the embedded PGlite (PostgreSQL compiled to WebAssembly) and its socket server on a
// worker thread, so queries never block the HTTP/gRPC event loop. Started by embedded-postgres.ts.
// Plain JavaScript on purpose: it runs outside any TypeScript loader.
const { Buffer } = require('node:buffer');
const { setImmediate } = require('node:timers');
const { parentPort, workerData } = require('node:worker_threads');

async function main() {
  const { PGlite } = require('@electric-sql/pglite');
  if (workerData.initOnly) {
    // A new data directory: initdb runs and the database closes; the thread then ends, and with it
    // the memory initdb used (several hundred MB that an open PGlite would keep).
    await (await PGlite.create(workerData.pgDataDir)).close();
    parentPort.postMessage({ type: 'initialized' });
    return;
  }
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
  const db = await PGlite.create(workerData.pgDataDir);
  const server = new PGLiteSocketServer({
    db,
    path: workerData.socketPath,
    maxConnections: workerData.maxConnections,
  });
  await server.start();
  coalesceRepliesOf(server);
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

/**
 * pglite-socket sends each reply of PostgreSQL's extended protocol (ParseComplete, BindComplete,
 * NoData, CommandComplete, ReadyForQuery) in a send of its own, with Nagle's algorithm off: five
 * sends, and as many wake-ups of the hub's event loop, for one statement. The replies to what a
 * client sent in one go are sent together instead, once this thread has handled it (the queries
 * run synchronously in WebAssembly, so they are all written within one turn of the event loop).
 * The socket server keeps its net.Server private, hence the guarded lookup: without it, replies go
 * out one by one as before.
 */
function coalesceRepliesOf(socketServer) {
  const netServer = socketServer.server;
  if (!netServer || typeof netServer.on !== 'function') return;
  netServer.on('connection', (socket) => {
    const write = socket.write.bind(socket);
    const end = socket.end.bind(socket);
    let chunks = [];
    let callbacks = [];
    const flush = () => {
      if (chunks.length === 0) return;
      const data = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const written = callbacks;
      chunks = [];
      callbacks = [];
      write(data, (error) => written.forEach((callback) => callback(error)));
    };
    socket.write = (chunk, encoding, callback) => {
      if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
      if (callback) callbacks.push(callback);
      if (chunks.length === 1) setImmediate(flush);
      return true;
    };
    socket.end = (...args) => {
      flush();
      return end(...args);
    };
  });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'failed', message: String(error && error.message), stack: error && error.stack });
});
