import type { SendMessageRequest, Task } from '@a2a-js/sdk';
import { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';

/**
 * The RequestContext the SDK's constructor makes, around a request built for this one call,
 * without the constructor's deep copy of it (structuredClone: ~20 µs of the hub's CPU per
 * message in bench/a2a-send's profile, twice per orchestrated turn). The copy keeps a caller's
 * request safe from an executor that changes it; the hub's callers build the request (and the
 * message in it) afresh for the call from what the transport decoded, and the hub's executors
 * read the request and never change it. The spec checks this stays what the constructor makes.
 */
export function ownedRequestContext(
  request: SendMessageRequest,
  taskId: string,
  contextId: string,
  context: ServerCallContext,
  task?: Task,
): RequestContext {
  if (!request.message) throw new Error('RequestContext requires request.message to be set.');
  const fields: Omit<RequestContext, 'userMessage'> = {
    request,
    taskId,
    contextId,
    context,
    task,
    referenceTasks: undefined,
  };
  return Object.assign(Object.create(RequestContext.prototype) as RequestContext, fields);
}
