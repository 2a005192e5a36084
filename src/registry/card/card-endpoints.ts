import { isRecord, joinIndex, quote, quoteAll } from './card-text';

/** The transports (v0.3 `preferredTransport`, `transport`) and bindings (v1.0 `protocolBinding`) the spec defines. */
export const KNOWN_TRANSPORTS = ['JSONRPC', 'GRPC', 'HTTP+JSON'] as const;

const KNOWN_VERSION = /^(?:0\.[23]|1\.0)(?:\.\d+)?$/;

/** True for the A2A protocol versions the registry understands: 0.2.x, 0.3.x and 1.0 (also "1.0.0"). */
export function isKnownProtocolVersion(version: unknown): version is string {
  return typeof version === 'string' && KNOWN_VERSION.test(version);
}

export function unknownVersionMessage(path: string, version: string): string {
  return `${path} ${quote(version)} is not a known A2A protocol version (expected 0.2.x, 0.3.x or 1.0)`;
}

/** Compares "major.minor[.patch]" versions numerically; unparsable versions sort lowest. */
export function compareVersions(a: unknown, b: unknown): number {
  const left = versionParts(a);
  const right = versionParts(b);
  for (let i = 0; i < left.length; i++) {
    if (left[i] !== right[i]) return left[i] - right[i];
  }
  return 0;
}

function versionParts(version: unknown): [number, number, number] {
  const match = typeof version === 'string' ? /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version) : null;
  if (!match) return [-1, -1, -1];
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

export function isKnownTransport(transport: string): boolean {
  return (KNOWN_TRANSPORTS as readonly string[]).includes(transport);
}

export function unknownTransportMessage(path: string, transport: string): string {
  return `${path} ${quote(transport)} is not one of ${quoteAll(KNOWN_TRANSPORTS)}`;
}

/** One endpoint a card declares: `url` itself, an `additionalInterfaces` entry or a `supportedInterfaces` entry. */
export interface DeclaredEndpoint {
  /** Path of the url, e.g. "url" or "supportedInterfaces[1].url". */
  urlPath: string;
  url: string;
  /** Path of the transport/binding field, e.g. "preferredTransport" or "supportedInterfaces[1].protocolBinding". */
  transportPath: string;
  transport: string;
}

/** An entry of `additionalInterfaces` or `supportedInterfaces`; only the latter carry a protocolVersion. */
export interface DeclaredInterface extends DeclaredEndpoint {
  protocolVersion: unknown;
  versionPath: string;
}

/** The well-formed entries of an interface list; malformed entries are already reported by the schema. */
export function declaredInterfaces(list: unknown, listPath: string, transportField: string): DeclaredInterface[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, index) => {
    const url = isRecord(item) ? item.url : undefined;
    const transport = isRecord(item) ? item[transportField] : undefined;
    if (!isRecord(item) || typeof url !== 'string' || typeof transport !== 'string') return [];
    const path = joinIndex(listPath, index);
    return [
      {
        urlPath: `${path}.url`,
        url,
        transportPath: `${path}.${transportField}`,
        transport,
        protocolVersion: item.protocolVersion,
        versionPath: `${path}.protocolVersion`,
      },
    ];
  });
}

/**
 * Why a client could not call this endpoint, as an error-severity problem, or null if it can.
 * JSON-RPC and HTTP+JSON need an absolute http(s) URL. gRPC clients also take a bare "host:port" target
 * (grpc-js, which the a2a-js gRPC transport uses, does), so any non-blank GRPC target is accepted.
 */
export function endpointProblem(endpoint: DeclaredEndpoint): { path: string; message: string } | null {
  const { url, urlPath, transport, transportPath } = endpoint;
  if (!isKnownTransport(transport)) {
    return { path: transportPath, message: unknownTransportMessage(transportPath, transport) };
  }
  if (transport === 'GRPC') {
    if (url.trim() !== '' && !/\s/.test(url)) return null;
    return {
      path: urlPath,
      message: `${urlPath} must be a gRPC target such as "https://agent.example.com" or "agent.example.com:443", got ${quote(url)}`,
    };
  }
  if (httpHost(url) !== null) return null;
  return { path: urlPath, message: `${urlPath} must be an absolute http(s) URL, got ${quote(url)}` };
}

/** The host an endpoint points at (http(s) URL or gRPC "host:port"), lower-cased, or null if it has none. */
export function endpointHost(url: string): string | null {
  return httpHost(url) ?? grpcTargetHost(url);
}

/** The lower-cased hostname of an absolute http(s) URL, or null. */
export function httpHost(url: string | undefined): string | null {
  if (url === undefined) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.hostname.toLowerCase();
  } catch {
    return null;
  }
}

function grpcTargetHost(target: string): string | null {
  const match = /^(\[[^\]]+\]|[^/:\s]+):\d+$/.exec(target);
  return match ? match[1].toLowerCase() : null;
}
