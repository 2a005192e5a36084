import { Message, Role } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

/** A text reply from an agent, in the SDK's (v1.0) message form. */
export function agentTextMessage(text: string, contextId: string, taskId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
