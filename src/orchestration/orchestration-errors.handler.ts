import { Message, SendMessageRequest, Task, TaskState } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { A2aUser } from '../a2a/hosting/a2a-user';
import { ORCHESTRATION_JSON_RPC_CODES, OrchestrationFailure } from './orchestration-failure';
import type { OrchestrationError } from './orchestration.types';
import { ORCHESTRATION_ERROR_KEY } from './orchestrator.executor';

/**
 * The orchestrator's request handler: the hub's own, except that `message/send` answers a
 * request the orchestrator could not complete with an error rather than a failed task - on
 * JSON-RPC one in the server range whose `data` is the OrchestrationError (see CallNotes), on
 * the other transports the error's message is the user message. Streams keep the failed task,
 * with the OrchestrationError in its metadata, as streams cannot change into an error midway.
 */
export function withOrchestrationErrors(inner: A2ARequestHandler): A2ARequestHandler {
  const handler = Object.create(inner) as A2ARequestHandler;
  handler.sendMessage = async (params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> => {
    const result = await inner.sendMessage(params, context);
    const error = failureOf(result);
    if (!error) return result;
    if (context.user instanceof A2aUser) {
      context.user.notes.jsonRpcError = { code: ORCHESTRATION_JSON_RPC_CODES[error.errorCode], data: { ...error } };
    }
    throw new OrchestrationFailure(error);
  };
  return handler;
}

function failureOf(result: Message | Task): OrchestrationError | undefined {
  if (!('status' in result) || result.status?.state !== TaskState.TASK_STATE_FAILED) return undefined;
  const error = result.metadata?.[ORCHESTRATION_ERROR_KEY];
  return error && typeof error === 'object' ? (error as OrchestrationError) : undefined;
}
