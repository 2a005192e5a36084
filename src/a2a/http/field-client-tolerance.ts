import { randomUUID } from 'node:crypto';

/** v0.3 only: v1.0 requests are taken as the specification writes them (a SendMessage without messageId is -32602). */
const SEND_METHODS = new Set(['message/send', 'message/stream']);
const OPTIONAL_MESSAGE_FIELDS = ['taskId', 'contextId', 'metadata', 'referenceTaskIds', 'extensions'];

/**
 * Accepts what real v0.3 clients send and the SDK refuses, by rewriting the request into standard
 * A2A before the SDK sees it (in place):
 * - Home Assistant sends `messageId: null` (and nulls for every optional field): a messageId is
 *   generated and null optionals are dropped;
 * - some clients send parts without `kind` (`{"text": "..."}`): the kind is inferred;
 * - our API spec lets callers send `role: "assistant"` for follow-ups: it is the agent role.
 * Anything else malformed is answered -32602 by the params check (json-rpc-params.ts).
 */
export function tolerateFieldClients(request: Record<string, unknown>): void {
  if (typeof request.method !== 'string' || !SEND_METHODS.has(request.method)) return;
  const params = asObject(request.params);
  if (!params) return;
  dropNulls(params, ['configuration', 'metadata']);
  const message = asObject(params.message);
  if (!message) return;
  if (message.messageId === null || message.messageId === undefined || message.messageId === '') {
    message.messageId = randomUUID();
  }
  dropNulls(message, OPTIONAL_MESSAGE_FIELDS);
  if (message.role === 'assistant') message.role = 'agent';
  if (Array.isArray(message.parts)) {
    for (const part of message.parts) {
      const p = asObject(part);
      if (!p) continue;
      dropNulls(p, ['metadata']);
      if (p.kind === undefined) {
        const kind = 'text' in p ? 'text' : 'file' in p ? 'file' : 'data' in p ? 'data' : undefined;
        if (kind) p.kind = kind;
      }
    }
  }
}

function dropNulls(target: Record<string, unknown>, fields: string[]): void {
  for (const field of fields) if (target[field] === null) delete target[field];
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
