import { VersionNotSupportedError } from '@a2a-js/sdk/errors';
import type { Request } from 'express';

/** The A2A protocol versions the hub serves, as the SDK and the cards name them. */
export type A2aVersion = '0.3' | '1.0';

const SERVED: readonly A2aVersion[] = ['1.0', '0.3'];
const HEADER = 'a2a-version';

/**
 * The served version an `A2A-Version` header value names, or undefined when the hub does not
 * serve it. Absent or empty is 0.3 (A2A: a request without the header is a v0.3 request);
 * `0.3`, `0.3.x`, `1`, `1.0` and `1.0.x` name the served versions (the version is
 * Major.Minor: a patch never changes the protocol). Anything else - `0.5`, `1.1`, `2`,
 * `latest` - is not served.
 */
export function servedVersion(header: string | string[] | undefined): A2aVersion | undefined {
  const raw = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (raw === '') return '0.3';
  if (/^0\.3(\.\d+)?$/.test(raw)) return '0.3';
  if (/^1(\.0(\.\d+)?)?$/.test(raw)) return '1.0';
  return undefined;
}

/** The version a request asks for, when the hub serves it (else undefined: see `versionNotSupported`). */
export function requestedVersion(req: Request): A2aVersion | undefined {
  return servedVersion(req.headers[HEADER]);
}

/**
 * Checks a request's `A2A-Version` before the SDK reads it: a version the hub serves is
 * rewritten to the spelling the SDK compares exactly (`1` and `1.0.2` become `1.0`; an absent
 * header stays absent), so a served version always reaches its own handler; a version the hub
 * does not serve is the A2A VersionNotSupportedError the caller gets, in the shape of its
 * binding (JSON-RPC -32009, HTTP+JSON 400 FAILED_PRECONDITION, both with the ErrorInfo reason
 * VERSION_NOT_SUPPORTED).
 */
export function negotiateVersion(req: Request): { version: A2aVersion } | { error: VersionNotSupportedError } {
  const header = req.headers[HEADER];
  const version = servedVersion(header);
  if (!version) return { error: versionNotSupported(Array.isArray(header) ? header.join(', ') : String(header)) };
  if (header !== undefined && header !== version) {
    if (String(header).trim() === '') delete req.headers[HEADER];
    else req.headers[HEADER] = version;
  }
  return { version };
}

/** The error for a version the hub does not serve, worded as the SDK words it (on gRPC too). */
export function versionNotSupported(version: string): VersionNotSupportedError {
  return new VersionNotSupportedError(
    `The requested A2A protocol version '${version}' is not supported. Supported versions: ${SERVED.join(', ')}`,
  );
}
