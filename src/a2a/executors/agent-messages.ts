import { Message, Role } from '@a2a-js/sdk';
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
