import { Message, SendMessageRequest, Task, TaskState } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { transportOf } from '../a2a/hosting/call-state';
import { orchestrationA2aError } from './orchestration-failure';
import type { OrchestrationError } from './orchestration.types';
import { ORCHESTRATION_ERROR_KEY } from './orchestrator-reply';

/**
 * The orchestrator's request handler: the hub's own, except that `message/send` answers a
 * request the orchestrator could not complete with an A2A error rather than a failed task - its
 * code ROUTER_FAILURE / AGENT_TIMEOUT / WORKFLOW_ERROR (JSON-RPC -32061..-32063), its message the
 * user message, and the OrchestrationError as its `data` (ErrorInfo metadata on v1.0, HTTP+JSON and
 * gRPC). Streams keep the failed task, with the OrchestrationError in its metadata, as streams
 * cannot change into an error midway.
 */
export function withOrchestrationErrors(inner: A2ARequestHandler): A2ARequestHandler {
  const handler = Object.create(inner) as A2ARequestHandler;
  handler.sendMessage = async (params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> => {
    const result = await inner.sendMessage(params, context);
    const error = failureOf(result);
    if (!error) return result;
    throw orchestrationA2aError(error, transportOf(context));
  };
  return handler;
}

function failureOf(result: Message | Task): OrchestrationError | undefined {
  if (!('status' in result) || result.status?.state !== TaskState.TASK_STATE_FAILED) return undefined;
  const error = result.metadata?.[ORCHESTRATION_ERROR_KEY];
  return error && typeof error === 'object' ? (error as OrchestrationError) : undefined;
}
