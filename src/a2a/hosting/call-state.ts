import type { Message } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';

/** Key in ServerCallContext.state: whether the caller's message continues a conversation. */
const CONTINUES_CONVERSATION = 'switchboard.continuesConversation';

/** Records, before the SDK fills in ids, whether the caller's message named a context or task. */
export function noteContinuation(context: ServerCallContext, message: Message | undefined): void {
  context.state.set(CONTINUES_CONVERSATION, Boolean(message?.contextId || message?.taskId));
}

/**
 * Whether the caller's message continues a conversation (it named a context or a task) rather
 * than starting one the SDK gave a fresh id. Unknown - a call that did not come through a hosted
 * agent's handler - counts as continuing: the answer that never skips a lookup.
 */
export function continuesConversation(context: ServerCallContext): boolean {
  return context.state.get(CONTINUES_CONVERSATION) !== false;
}
