import type { Metadata } from '@grpc/grpc-js';
import type { IncomingHttpHeaders } from 'node:http';

/** The key an HTTP caller presents: `X-Api-Key: <key>` or `Authorization: Bearer <key>`. */
export function keyFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  return pick(headers['x-api-key'], headers.authorization);
}

/** The key a gRPC caller presents: the same two, as `x-api-key` / `authorization` metadata. */
export function keyFromMetadata(metadata: Metadata): string | undefined {
  return pick(metadata.get('x-api-key')[0]?.toString(), metadata.get('authorization')[0]?.toString());
}

function pick(apiKey: unknown, authorization: unknown): string | undefined {
  const direct = Array.isArray(apiKey) ? apiKey[0] : apiKey;
  if (typeof direct === 'string' && direct.trim()) return direct.trim();
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}
