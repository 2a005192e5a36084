import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Headers as UndiciHeaders, Response as UndiciResponse } from 'undici';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { DispatchAnswer, discard } from './dispatch-answer';

/** Statuses whose responses have no body (and that a fetch Response may not be given one for). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch Response for a dispatcher answer: headers, status, the URL, and the body (decoded).
 * With `buffered`, a body that is not a server-sent event stream is read in full here (within the
 * caller's timeout) and served by a bufferedResponse; else the body streams.
 */
export async function fetchResponse(
  answer: DispatchAnswer,
  url: string,
  method: string,
  redirected: boolean,
  buffered: boolean,
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
    response = bufferedResponse(answer.body, init);
  } else {
    const body = decoded(Buffer.isBuffer(answer.body) ? Readable.from([answer.body]) : answer.body, encoding);
    response =
      buffered && !isEventStream(headers)
        ? bufferedResponse(await readAll(body), init)
        : new UndiciResponse(body, init);
  }
  // As fetch's own answers do, the Response says where it came from.
  Object.defineProperties(response, { url: { value: url }, redirected: { value: redirected } });
  return response;
}

/** The whole body. (node:stream/consumers' `buffer` goes through a Blob, which costs more than the read.) */
function readAll(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
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
 * if asked; a body is read once, as fetch's is. (Own properties over undici's Response with no
 * body: its type declares these members as properties, which a subclass cannot override.)
 */
export function bufferedResponse(bytes: Buffer, init: { status: number; headers: UndiciHeaders }): Response {
  const response = new UndiciResponse(null, init);
  let used = false;
  let stream: ReadableStream<Uint8Array> | undefined;
  const consume = (): Buffer => {
    if (used) throw new TypeError('Body is unusable: Body has already been read');
    used = true;
    return bytes;
  };
  const text = async () => consume().toString('utf8');
  Object.defineProperties(response, {
    bodyUsed: { get: () => used },
    body: {
      // Made on first use, then the same stream, as a Response's body is.
      get: () => {
        if (stream === undefined && !used) {
          const all = consume();
          stream = new ReadableStream<Uint8Array>({
            start(controller) {
              if (all.length > 0) controller.enqueue(new Uint8Array(all));
              controller.close();
            },
          });
        }
        return stream ?? null;
      },
    },
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) as unknown },
    bytes: { value: async () => new Uint8Array(consume()) },
    arrayBuffer: {
      value: async () => {
        const all = consume();
        return all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
      },
    },
    clone: {
      value: () => {
        if (used) throw new TypeError('Response.clone: Body has already been consumed.');
        const copy = bufferedResponse(bytes, { status: response.status, headers: new UndiciHeaders(response.headers) });
        Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
        return copy;
      },
    },
  });
  return response;
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
