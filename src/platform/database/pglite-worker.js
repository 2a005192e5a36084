'use strict';
// Runs the embedded PGlite (PostgreSQL compiled to WebAssembly) and its socket server on a
// worker thread, so queries never block the HTTP/gRPC event loop. Started by embedded-postgres.ts.
// Plain JavaScript on purpose: it runs outside any TypeScript loader.
const { Buffer } = require('node:buffer');
const { setImmediate } = require('node:timers');
const { parentPort, workerData } = require('node:worker_threads');

/**
 * PostgreSQL's page cache inside PGlite's WebAssembly memory. PostgreSQL's default (128MB) is a
 * server's; an embedded database that serves one hub - whose data files the operating system
 * caches anyway - does as well with less, and every megabyte of it stays in the process once
 * touched: 32MB leaves the process ~120 MB smaller at start, with the same write and read costs.
 */
const SHARED_BUFFERS = '32MB';

async function main() {
  const { PGlite } = require('@electric-sql/pglite');
  if (workerData.initOnly) {
    // A new data directory: initdb runs and the database closes; the thread then ends, and with it
    // the memory initdb used (several hundred MB that an open PGlite would keep).
    await (await PGlite.create(workerData.pgDataDir)).close();
    parentPort.postMessage({ type: 'initialized' });
    return;
  }
  const { PGLiteSocketServer, PGLiteSocketHandler } = require('@electric-sql/pglite-socket');
  runMessagesTogether(PGLiteSocketHandler);
  const db = await PGlite.create(workerData.pgDataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  });
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
 * pglite-socket hands PGlite each message a client sent on its own: a statement with parameters
 * (Parse, Bind, Describe, Execute, Sync) is five turns through its query queue and five calls into
 * PGlite, each with its fixed cost, and that was most of what a short statement cost this thread.
 * PGlite takes several messages in one call (it runs its main loop until the input is used up),
 * so a client's messages are handed over together up to the one that asks for answers (Sync,
 * Query, Flush, ...), in order, as one turn of the queue - which still keeps other connections
 * out while one is in a transaction (PGlite is one session for them all). Start-up
 * packets (first byte 0: SSL request, startup, cancel) go the library's way, and Terminate ('X'),
 * which PGlite handles only as the first message of a call, goes on its own. The handler's
 * internals are not public API, hence the guard: without them, messages go one by one as before.
 */
function runMessagesTogether(Handler) {
  const proto = Handler && Handler.prototype;
  if (!proto || typeof proto.handleData !== 'function' || typeof proto.handleSslRequest !== 'function') return;
  const handleOneByOne = proto.handleData;
  proto.handleData = async function handleData(data) {
    if (!this.socket || !this.active || !this.queryQueue || !Buffer.isBuffer(this.messageBuffer)) {
      return handleOneByOne.call(this, data);
    }
    const first = this.messageBuffer.length > 0 ? this.messageBuffer[0] : data[0];
    if (first === 0) return handleOneByOne.call(this, data);
    this.messageBuffer = this.messageBuffer.length > 0 ? Buffer.concat([this.messageBuffer, data]) : data;
    let sent = 0;
    while (this.messageBuffer.length > 0 && this.active && this.socket) {
      const end = messagesToRun(this.messageBuffer);
      if (end === 0) break;
      const messages = new Uint8Array(this.messageBuffer.subarray(0, end));
      this.messageBuffer = this.messageBuffer.subarray(end);
      let failed;
      await this.queryQueue.enqueue(this.id, messages, (reply) => {
        if (reply.length === 0 || !this.socket || !this.socket.writable || !this.active) return;
        this.socket.write(Buffer.from(reply), (error) => {
          if (error) failed = error;
        });
        sent += reply.length;
      });
      if (failed) throw failed;
    }
    return sent;
  };
}

const TERMINATE = 0x58;
/**
 * Messages after which a client may wait for answers: Sync, Query, Flush, Terminate, CopyDone,
 * CopyFail, PasswordMessage, FunctionCall. Until one arrives, nothing is answered anyway.
 */
const ANSWERED = new Set([0x53, 0x51, 0x48, TERMINATE, 0x63, 0x66, 0x70, 0x46]);

/**
 * Where the messages to run now end in `buffer`: after the last complete message that asks for
 * answers (Terminate: alone); 0 while none has arrived in full.
 */
function messagesToRun(buffer) {
  let end = 0;
  let runTo = 0;
  while (buffer.length - end >= 5) {
    const type = buffer[end];
    if (type === 0 || (type === TERMINATE && end > 0)) break;
    const next = end + 1 + buffer.readInt32BE(end + 1);
    if (next > buffer.length || next <= end) break;
    end = next;
    if (ANSWERED.has(type)) runTo = end;
    if (type === TERMINATE) break;
  }
  return runTo;
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
