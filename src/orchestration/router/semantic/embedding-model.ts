import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const WORKER_FILE = join(__dirname, 'embedding-worker.js');

/** The sentence-embedding model, running on its worker thread. */
export interface EmbeddingModel {
  dimensions: number;
  loadMs: number;
  /** Unit vectors of `texts`, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Batches asked for and not answered yet (the worker takes one at a time). */
  queued(): number;
  /** The worker is gone (crashed or exited): no batch will be answered any more. */
  stopped(): boolean;
}

type FromWorker =
  | { type: 'ready'; loadMs: number; dimensions: number }
  | { type: 'failed'; message: string }
  | { type: 'vectors'; id: number; flat: Float32Array }
  | { type: 'error'; id: number; message: string };

/**
 * The model is the same for every app in a process (tests start many): one worker, loaded once,
 * read-only, shared by its users until the last releases it. The worker does not keep the process
 * alive.
 */
let shared: Promise<EmbeddingModel> | undefined;
let sharedWorker: Worker | undefined;
let users = 0;

/** The model, loaded on first use; each call is a user, to be released (releaseEmbeddingModel). */
export function loadEmbeddingModel(): Promise<EmbeddingModel> {
  users++;
  shared ??= start();
  shared.catch(() => (shared = undefined));
  return shared;
}

/**
 * One user is done with the model; when none is left its worker stops, and with it the model's
 * memory (a process that starts and closes many apps, as the tests do, would otherwise keep a
 * worker - and a WebAssembly heap - for each module instance that loaded one).
 */
export function releaseEmbeddingModel(): void {
  if (users === 0 || --users > 0) return;
  const worker = sharedWorker;
  shared = undefined;
  sharedWorker = undefined;
  void worker?.terminate();
}

function start(): Promise<EmbeddingModel> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE);
    sharedWorker = worker;
    worker.unref();
    const pending = new Map<number, { resolve(v: Float32Array[]): void; reject(e: Error): void; count: number }>();
    let next = 0;
    let dimensions = 0;
    let stopped: Error | undefined;
    const fail = (error: Error) => {
      stopped = error;
      for (const request of pending.values()) request.reject(error);
      pending.clear();
      reject(error);
      if (sharedWorker === worker) {
        shared = undefined;
        sharedWorker = undefined;
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedding worker stopped (exit code ${code})`)));
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          dimensions = message.dimensions;
          resolve({
            dimensions,
            loadMs: message.loadMs,
            embed,
            queued: () => pending.size,
            stopped: () => stopped !== undefined,
          });
          return;
        case 'failed':
          void worker.terminate();
          return fail(new Error(message.message));
        case 'vectors': {
          const request = pending.get(message.id);
          pending.delete(message.id);
          request?.resolve(
            Array.from({ length: request.count }, (_, row) =>
              message.flat.subarray(row * dimensions, (row + 1) * dimensions),
            ),
          );
          return;
        }
        case 'error': {
          const request = pending.get(message.id);
          pending.delete(message.id);
          request?.reject(new Error(message.message));
          return;
        }
      }
    });
    function embed(texts: string[]): Promise<Float32Array[]> {
      if (stopped) return Promise.reject(stopped);
      if (!texts.length) return Promise.resolve([]);
      const id = next++;
      return new Promise((resolveEmbed, rejectEmbed) => {
        pending.set(id, { resolve: resolveEmbed, reject: rejectEmbed, count: texts.length });
        // While requests wait, the worker keeps the process alive; idle, it does not.
        if (pending.size === 1) worker.ref();
        worker.postMessage({ type: 'embed', id, texts });
      }).finally(() => {
        if (pending.size === 0) worker.unref();
      }) as Promise<Float32Array[]>;
    }
  });
}
