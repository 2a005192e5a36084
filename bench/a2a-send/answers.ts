/**
 * What a correct answer to `message/send` is, in the v0.3 wire format the benchmark speaks: the
 * JSON-RPC result for the request's own id, holding exactly the echo of the text that request
 * sent. Every request sends a new id and text, so no answer can pass for another's.
 */

/** The shape of answer a target gives: a Message, or a completed Task whose artifact holds the echo. */
export type AnswerKind = 'message' | 'task';

interface V03Part {
  kind?: string;
  text?: string;
}

interface V03Reply {
  jsonrpc?: string;
  id?: unknown;
  result?: {
    kind?: string;
    role?: string;
    parts?: V03Part[];
    status?: { state?: string };
    artifacts?: { parts?: V03Part[] }[];
  };
}

/** Is `body` the answer to request `id`: a `kind` answer whose echo is exactly `expected`? */
export function isEcho(kind: AnswerKind, body: string, id: number | undefined, expected: string | undefined): boolean {
  let reply: V03Reply;
  try {
    reply = JSON.parse(body) as V03Reply;
  } catch {
    return false;
  }
  if (reply.jsonrpc !== '2.0' || reply.id !== id || !reply.result) return false;
  const result = reply.result;
  if (kind === 'message') {
    const part = result.parts?.[0];
    return result.kind === 'message' && result.role === 'agent' && part?.kind === 'text' && part.text === expected;
  }
  return (
    result.kind === 'task' &&
    result.status?.state === 'completed' &&
    (result.artifacts ?? []).some((artifact) => firstText(artifact.parts) === expected)
  );
}

function firstText(parts: V03Part[] | undefined): string | undefined {
  return parts?.find((part) => part.kind === 'text')?.text;
}

/** Did the hub's rate limiter count the request (and leave room for more)? */
export function hasRateLimitHeaders(headers: Record<string, unknown> | undefined): boolean {
  if (!headers) return false;
  const limit = headers['X-RateLimit-Limit'] ?? headers['x-ratelimit-limit'];
  const remaining = headers['X-RateLimit-Remaining'] ?? headers['x-ratelimit-remaining'];
  return limit !== undefined && Number(remaining) > 0;
}
