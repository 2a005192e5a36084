import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

/** An answer to a request made through undici's dispatcher API. */
export interface DispatchAnswer {
  statusCode: number;
  /** Names in lower case; a repeated header as an array. */
  headers: Record<string, string | string[] | undefined>;
  /** The whole body, when it was read before resolving; else the body as it streams. */
  body: Buffer | Readable;
}

type RequestOptions = Dispatcher.DispatchOptions & { signal: AbortSignal };

/**
 * Sends a request and resolves with its answer. With `maxBufferedBytes`, a body that is not a
 * server-sent event stream is read in full first, straight from undici's dispatch callbacks:
 * `Dispatcher.request` wraps every answer in a stream (an async resource, a Readable, its events
 * on the next ticks), which cost each message to a remote agent tens of microseconds on its path.
 * A body that declares or reaches more than `maxBufferedBytes` ends the request with
 * `responseTooLarge` (UPSTREAM_FAILED). An event stream, and every body without
 * `maxBufferedBytes` (a caller that counts bytes as they arrive), streams as `request` streams
 * it. The signal aborts the request, or the body while it streams, with its reason.
 */
export function answerOf(
  agent: Dispatcher,
  options: RequestOptions,
  maxBufferedBytes: number | undefined,
): Promise<DispatchAnswer> {
  if (maxBufferedBytes === undefined) return agent.request(options);
  const { signal, ...dispatched } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    agent.dispatch(dispatched, new AnswerHandler(signal, maxBufferedBytes, options.origin, resolve, reject));
  });
}

/** What a body larger than the caller reads into memory is refused with. */
export function responseTooLarge(origin: string, maxBytes: number): DomainError {
  return new DomainError(ErrorCode.UPSTREAM_FAILED, `Response from ${origin} is larger than ${maxBytes} bytes`, {
    details: { url: origin, reason: 'response too large', maxBytes },
  });
}

/** Drops an answer's body (a redirect's, say) without reading it. */
export function discard(answer: DispatchAnswer): void {
  if (answer.body instanceof Readable) {
    const body = answer.body as Readable & { dump?: () => Promise<void> };
    if (typeof body.dump === 'function') void body.dump().catch(() => undefined);
    else body.destroy();
  }
}

/** undici's handler for one request: the answer in memory, or as a stream if it is an event stream. */
class AnswerHandler implements Dispatcher.DispatchHandlers {
  private abortRequest?: (error?: Error) => void;
  private statusCode = 0;
  private headers: Record<string, string | string[]> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private stream?: Readable;
  /** The request is over: answered in full, or failed. */
  private done = false;
  /** The body was too large: what comes of it is dropped. */
  private refused = false;

  constructor(
    private readonly signal: AbortSignal,
    private readonly maxBytes: number,
    private readonly origin: Dispatcher.DispatchOptions['origin'],
    private readonly resolve: (answer: DispatchAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.signal.aborted) return abort(this.signal.reason as Error);
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true;
    this.statusCode = statusCode;
    this.headers = headersOf(rawHeaders);
    if (isEventStream(this.headers['content-type'])) {
      this.stream = new Readable({
        read: () => resume(),
        destroy: (error, callback) => {
          if (!this.done) this.abortRequest?.(error ?? new Error('The body was not read to its end'));
          callback(error);
        },
      });
      this.resolve({ statusCode, headers: this.headers, body: this.stream });
    } else if (Number(this.headers['content-length']) > this.maxBytes) {
      this.refuse();
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.push(chunk);
    if (this.refused) return false;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.maxBytes) this.refuse();
    return true;
  }

  /** Ends a request whose body is too large to keep, dropping what was read of it. */
  private refuse(): void {
    this.refused = true;
    this.chunks.length = 0;
    this.abortRequest?.(responseTooLarge(String(this.origin), this.maxBytes));
  }

  onComplete(): void {
    this.finish();
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  onError(error: Error): void {
    this.finish();
    if (this.stream) this.stream.destroy(error);
    else this.reject(error);
  }

  private finish(): void {
    this.done = true;
    this.signal.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => {
    const reason = this.signal.reason as Error;
    if (this.stream) this.stream.destroy(reason);
    else this.abortRequest?.(reason);
    // Not connected yet: onConnect aborts it.
  };
}

function headersOf(raw: Buffer[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toString('latin1').toLowerCase();
    const value = raw[i + 1].toString('utf8');
    const seen = headers[name];
    if (seen === undefined) headers[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else headers[name] = [seen, value];
  }
  return headers;
}

function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').trim().toLowerCase().startsWith('text/event-stream');
}
