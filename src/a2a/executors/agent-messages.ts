import { Message, Role, Task } from '@a2a-js/sdk';
import type { RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';

/** A text reply from an agent, in the SDK's (v1.0) message form. */
export function agentTextMessage(text: string, contextId: string, taskId = ''): Message {
  return textMessage(Role.ROLE_AGENT, text, contextId, taskId);
}

/** A text message from a user (a caller), in the SDK's (v1.0) message form. */
export function userTextMessage(text: string, contextId: string, taskId = ''): Message {
  return textMessage(Role.ROLE_USER, text, contextId, taskId);
}

function textMessage(role: Role, text: string, contextId: string, taskId: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * The task a message continues, as the hub knows it, with that message in its history: what an
 * executor publishes first when it goes on with a known task - the SDK (1.x) refuses a stream
 * whose first event is a status update ("Received statusUpdate before initial 'Message'/'Task'
 * event"). Undefined when the message starts a task.
 */
export function continuedTask(request: RequestContext): Task | undefined {
  const known = request.task;
  if (!known) return undefined;
  const message = request.userMessage;
  return { ...known, history: [...known.history.filter((m) => m.messageId !== message.messageId), message] };
}
