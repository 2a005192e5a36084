import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Headers as UndiciHeaders, Response as UndiciResponse } from 'undici';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { DispatchAnswer, discard, responseTooLarge } from './dispatch-answer';

/** Statuses whose responses have no body (and that a fetch Response may not be given one for). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch Response for a dispatcher answer: headers, status, the URL, and the body (decoded).
 * With `maxBufferedBytes`, a body that is not a server-sent event stream is read in full here
 * (within the caller's timeout; a compressed one is refused with responseTooLarge past that many
 * bytes once decoded) and served by a bufferedResponse; else the body streams.
 */
export async function fetchResponse(
  answer: DispatchAnswer,
  url: string,
  method: string,
  redirected: boolean,
  maxBufferedBytes: number | undefined,
): Promise<Response> {
  if (answer.statusCode < 200 || answer.statusCode > 599) {
    discard(answer);
    const origin = new URL(url).origin;
    throw new DomainError(ErrorCode.UPSTREAM_FAILED, `Unexpected HTTP status ${answer.statusCode} from ${origin}`, {
      details: { url: origin, reason: 'invalid response' },
    });
  }
  const headers = new UndiciHeaders();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  const init = { status: answer.statusCode, headers };
  let response: Response;
  const encoding = headers.get('content-encoding');
  if (method === 'HEAD' || NULL_BODY_STATUSES.has(answer.statusCode)) {
    discard(answer);
    response = new UndiciResponse(null, init);
  } else if (Buffer.isBuffer(answer.body) && !DECODERS[encodingName(encoding)]) {
    return bufferedResponse(answer.body, init, url, redirected);
  } else {
    const body = decoded(Buffer.isBuffer(answer.body) ? Readable.from([answer.body]) : answer.body, encoding);
    response =
      maxBufferedBytes !== undefined && !isEventStream(headers)
        ? bufferedResponse(await readAll(body, maxBufferedBytes, url), init, url, redirected)
        : new UndiciResponse(body, init);
    if (response instanceof BufferedResponse) return response;
  }
  // As fetch's own answers do, the Response says where it came from.
  Object.defineProperties(response, { url: { value: url }, redirected: { value: redirected } });
  return response;
}

/**
 * The whole body, or responseTooLarge past `maxBytes`. (node:stream/consumers' `buffer` goes
 * through a Blob, which costs more than the read.)
 */
function readAll(body: Readable, maxBytes: number, url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      chunks.length = 0;
      body.destroy(responseTooLarge(new URL(url).origin, maxBytes));
    });
    body.once('error', reject);
    body.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  });
}

function isEventStream(headers: UndiciHeaders): boolean {
  return (headers.get('content-type') ?? '').trim().toLowerCase().startsWith('text/event-stream');
}

/**
 * A fetch Response whose body is already in memory. `text()`, `json()`, `arrayBuffer()` and
 * `bytes()` read it directly: a Response given its body makes a web ReadableStream for it, which
 * cost a proxied message tens of microseconds of CPU that nothing used. `body` still makes one,
 * if asked; a body is read once, as fetch's is. `url` and `redirected` say where it came from.
 */
export function bufferedResponse(
  bytes: Buffer,
  init: { status: number; headers: UndiciHeaders },
  url = '',
  redirected = false,
): Response {
  return new BufferedResponse(bytes, init, url, redirected);
}

/**
 * undici's Response with no body, its body members overridden on the prototype - once, not per
 * answer: giving each answer closures as own properties (as this did before) cost ~8 us apiece.
 * (They are defined on the prototype rather than declared: the types declare them as
 * properties, which a subclass cannot override with methods or accessors.)
 */
class BufferedResponse extends UndiciResponse {
  #bytes: Buffer;
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;
  readonly #url: string;
  readonly #redirected: boolean;

  constructor(bytes: Buffer, init: { status: number; headers: UndiciHeaders }, url: string, redirected: boolean) {
    super(null, init);
    this.#bytes = bytes;
    this.#url = url;
    this.#redirected = redirected;
  }

  static {
    Object.defineProperties(BufferedResponse.prototype, {
      bodyUsed: {
        get(this: BufferedResponse) {
          return this.#used;
        },
      },
      body: {
        // Made on first use, then the same stream, as a Response's body is.
        get(this: BufferedResponse) {
          if (this.#stream === undefined && !this.#used) {
            const all = this.#consume();
            this.#stream = new ReadableStream<Uint8Array>({
              start(controller) {
                if (all.length > 0) controller.enqueue(new Uint8Array(all));
                controller.close();
              },
            });
          }
          return this.#stream ?? null;
        },
      },
      url: {
        get(this: BufferedResponse) {
          return this.#url;
        },
      },
      redirected: {
        get(this: BufferedResponse) {
          return this.#redirected;
        },
      },
      text: {
        value(this: BufferedResponse) {
          return this.#read((all) => all.toString('utf8'));
        },
      },
      json: {
        value(this: BufferedResponse) {
          return this.#read((all) => JSON.parse(all.toString('utf8')) as unknown);
        },
      },
      arrayBuffer: {
        value(this: BufferedResponse) {
          return this.#read((all) => all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength));
        },
      },
      bytes: {
        value(this: BufferedResponse) {
          return this.#read((all) => new Uint8Array(all));
        },
      },
      clone: {
        value(this: BufferedResponse) {
          if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
          return new BufferedResponse(
            this.#bytes,
            { status: this.status, headers: new UndiciHeaders(this.headers) },
            this.#url,
            this.#redirected,
          );
        },
      },
    });
  }

  /** As a fetch body is read: asynchronously, the failure (read twice, not JSON) as a rejection. */
  async #read<T>(convert: (all: Buffer) => T): Promise<T> {
    return convert(this.#consume());
  }

  #consume(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }
}

/** The body as fetch would hand it over: gzip, deflate and br decoded (the header stays, as fetch leaves it). */
function decoded(body: Readable, encoding: string | null): Readable {
  const decoder = DECODERS[encodingName(encoding)];
  // pipeline: an error on either side (a reset, an abort, a corrupt stream) reaches the reader.
  return decoder ? pipeline(body, decoder(), () => undefined) : body;
}

function encodingName(encoding: string | null): string {
  return encoding?.trim().toLowerCase() ?? '';
}

const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
