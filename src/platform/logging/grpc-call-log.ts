import { status as GrpcStatus } from '@grpc/grpc-js';
import type { Logger as Pino } from 'pino';
import type { EndedGrpcCall } from '../grpc/grpc-call-end';
import { SAFE_REQUEST_ID } from './request-log';

/** Statuses that mean the hub (or a backend or agent behind it) failed, as a 5xx does over HTTP. */
const SERVER_FAILURES = new Set<GrpcStatus>([
  GrpcStatus.UNKNOWN,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
  GrpcStatus.DEADLINE_EXCEEDED,
]);

const HEALTH_SERVICE = 'grpc.health.v1.Health';

/**
 * One JSON log line per gRPC call when it ends, by the rules of the HTTP request line
 * (RequestLog): full method, status code name, time in ms, the peer, the caller's `x-request-id`
 * if it is sane, the user agent - and no other metadata, so keys never reach the logs. At
 * `info`, `error` for a server-side failure (UNKNOWN, INTERNAL, UNAVAILABLE, DATA_LOSS,
 * DEADLINE_EXCEEDED); health checks are not logged. The line is built only when it is written.
 */
export class GrpcCallLog {
  constructor(private readonly pino: Pino) {}

  write(call: EndedGrpcCall): void {
    if (call.service === HEALTH_SERVICE) return;
    const level = SERVER_FAILURES.has(call.code) ? 'error' : 'info';
    if (!this.pino.isLevelEnabled(level)) return;
    const id = call.metadata.get('x-request-id')[0];
    const userAgent = call.metadata.get('user-agent')[0];
    this.pino[level](
      {
        grpc: {
          id: typeof id === 'string' && SAFE_REQUEST_ID.test(id) ? id : undefined,
          method: call.path,
          peer: call.peer,
          userAgent: typeof userAgent === 'string' ? userAgent : undefined,
        },
        code: GrpcStatus[call.code] ?? String(call.code),
        responseTime: Math.round(call.milliseconds),
      },
      call.code === GrpcStatus.CANCELLED ? 'gRPC call cancelled' : 'gRPC call completed',
    );
  }
}
