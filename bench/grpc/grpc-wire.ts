/**
 * A minimal gRPC client on node:http2, as thin as the undici pool the HTTP side uses: unary calls
 * only, each a POST stream on one of a few HTTP/2 sessions, the request one length-prefixed
 * protobuf message (encoded by protobufjs from the hub's own protos), the answer's `grpc-status`
 * read from the trailers (or a trailers-only answer) and its message decoded by protobufjs into a
 * message object - every byte parsed, as JSON.parse parses the HTTP answers, without the further
 * conversion to plain objects a generated client does. No channel state machine, no interceptors,
 * no per-call metadata objects.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Root, type Type } from 'protobufjs';
import { ClientHttp2Session, connect, constants, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';

/** A call's outcome: its gRPC status (and message), and the decoded answer when the status is OK. */
export interface UnaryAnswer<T> {
  status: number;
  message: string;
  answer?: T;
}

/** One unary method: where it is and how its messages are written and read. */
export interface WireMethod<Req, Res> {
  path: string;
  encode: (request: Req) => Buffer;
  decode: (bytes: Buffer) => Res;
}

/** The protos under `protoDir` (imports resolved there, else among protobufjs's own google/protobuf/*). */
export function loadProtos(protoDir: string, files: string[]): Root {
  const bundled = dirname(require.resolve('protobufjs/package.json'));
  const root = new Root();
  root.resolvePath = (_origin, target) =>
    existsSync(join(protoDir, target)) ? join(protoDir, target) : join(bundled, target);
  return root.loadSync(files);
}

/**
 * The unary method `Service/Method` (e.g. `switchboard.v2.SystemService`, `GetInfo`): requests
 * are given as protobufjs reads objects (camelCase fields, enum names), answers are messages.
 */
export function wireMethod<Req extends object, Res>(root: Root, service: string, method: string): WireMethod<Req, Res> {
  const found = root.lookupService(service).methods[method];
  if (!found || found.requestStream || found.responseStream) throw new Error(`No unary method ${service}/${method}`);
  const request: Type = root.lookupType(found.requestType);
  const response: Type = root.lookupType(found.responseType);
  return {
    path: `/${service}/${method}`,
    encode: (value) => Buffer.from(request.encode(request.fromObject(value)).finish()),
    decode: (bytes) => response.decode(bytes) as unknown as Res,
  };
}

/** The 5-byte gRPC message prefix (uncompressed, big-endian length) and the message. */
export function grpcFrame(message: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame.writeUInt8(0, 0);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

/** The one message of a unary answer's body; throws on a compressed, short or multi-message body. */
export function grpcMessage(body: Buffer): Buffer {
  if (body.length < 5) throw new Error(`gRPC answer body of ${body.length} bytes has no message`);
  if (body.readUInt8(0) !== 0) throw new Error('gRPC answer is compressed; the bench asked for none');
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length)
    throw new Error(`gRPC answer body is ${body.length} bytes, its frame says ${5 + length}`);
  return body.subarray(5);
}

const { HTTP2_HEADER_METHOD, HTTP2_HEADER_PATH, HTTP2_HEADER_CONTENT_TYPE, HTTP2_HEADER_TE } = constants;

/** `sessions` HTTP/2 connections to `authority` (http://host:port), calls spread over them in turn. */
export class GrpcWire {
  private readonly sessions: ClientHttp2Session[];
  private next = 0;

  constructor(authority: string, sessions: number) {
    this.sessions = Array.from({ length: sessions }, () =>
      connect(authority, { settings: { initialWindowSize: 1 << 20 } }).on('error', () => undefined),
    );
  }

  /** Calls `method` with the already framed request `frame` and `metadata` (ASCII headers). */
  call<Res>(
    method: Pick<WireMethod<never, Res>, 'path' | 'decode'>,
    frame: Buffer,
    metadata: OutgoingHttpHeaders,
  ): Promise<UnaryAnswer<Res>> {
    const session = this.sessions[this.next++ % this.sessions.length];
    return new Promise((resolve, reject) => {
      const stream = session.request({
        [HTTP2_HEADER_METHOD]: 'POST',
        [HTTP2_HEADER_PATH]: method.path,
        [HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
        [HTTP2_HEADER_TE]: 'trailers',
        ...metadata,
      });
      const chunks: Buffer[] = [];
      let status: string | undefined;
      let message = '';
      const readStatus = (headers: IncomingHttpHeaders) => {
        const code = headers['grpc-status'];
        if (typeof code !== 'string') return;
        status = code;
        const text = headers['grpc-message'];
        message = typeof text === 'string' ? decodeURIComponent(text) : '';
      };
      stream.on('response', readStatus);
      stream.on('trailers', readStatus);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('close', () => {
        if (status === undefined) return reject(new Error(`${method.path}: the answer carried no grpc-status`));
        const code = Number(status);
        if (code !== 0) return resolve({ status: code, message });
        try {
          resolve({ status: 0, message, answer: method.decode(grpcMessage(Buffer.concat(chunks))) });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      stream.end(frame);
    });
  }

  close(): Promise<void> {
    return Promise.all(this.sessions.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(
      () => undefined,
    );
  }
}
