import type { A2aVersion } from './a2a-version';
import {
  isPlainObject,
  Shape,
  V03_REST_PUSH_CONFIG_BODY,
  V03_REST_SEND,
  V1_PUSH_CONFIG_BODY,
  V1_SEND,
} from './request-shapes';

/** The v0.3 operations, under `/v1` (the SDK's legacy router serves exactly these paths). */
const V03_SEND = /^\/v1\/message:(send|stream)$/;
const V03_PUSH_CONFIGS = /^\/v1\/tasks\/[^/]+\/pushNotificationConfigs$/;
/** The v1.0 operations, optionally under a `/{tenant}` prefix. */
const V1_SEND_PATH = /^(\/[^/]+)?\/message:(send|stream)$/;
const V1_PUSH_CONFIGS = /^(\/[^/]+)?\/tasks\/[^/]+\/pushNotificationConfigs$/;

/**
 * The first problem with an HTTP+JSON request's body, or undefined. A body, when there is one,
 * must be a JSON object (`null` is no body: v0.3 clients POST it for "nothing"); the SDK writes
 * the path's tenant into it and would fail on `42`. The bodies of `message:send`,
 * `message:stream` and a push config's creation must have their operation's shape, in ProtoJSON
 * (request-shapes.ts), as the version's router reads it: the v0.3 router serves `/v1/...` paths
 * of v0.3 requests, the v1.0 router everything else.
 */
export function restBodyProblem(method: string, url: string, version: A2aVersion, body: unknown): string | undefined {
  if (body !== undefined && body !== null && !isPlainObject(body)) return 'the request body must be a JSON object';
  if (method !== 'POST') return undefined;
  return shapeOf(url, version)?.check(body ?? {}, '', true);
}

function shapeOf(url: string, version: A2aVersion): Shape | undefined {
  const path = url.split('?', 1)[0];
  if (version === '0.3' && path.startsWith('/v1/')) {
    if (V03_SEND.test(path)) return V03_REST_SEND;
    if (V03_PUSH_CONFIGS.test(path)) return V03_REST_PUSH_CONFIG_BODY;
    return undefined;
  }
  if (V1_SEND_PATH.test(path)) return V1_SEND;
  if (V1_PUSH_CONFIGS.test(path)) return V1_PUSH_CONFIG_BODY;
  return undefined;
}
