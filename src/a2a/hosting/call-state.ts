import type { Message } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';

/**
 * What the hub notes about a call in its ServerCallContext.state, for the parts of the SDK's
 * pipeline that only see the context (task store, push sender, executors). Keys are the hub's.
 */
const CONTINUES_CONVERSATION = 'switchboard.continuesConversation';
/** The task the call's execution runs on this replica. */
const EXECUTION_TASK = 'switchboard.executionTask';
/** A task id the SDK made up for the call: no record, no webhook exists for it yet. */
const NEW_TASK = 'switchboard.newTask';
const TRANSPORT = 'switchboard.transport';

/** How a call reached the hub: it decides the form its errors take (see a2a-error.ts). */
export type A2aTransport = 'jsonrpc' | 'rest' | 'grpc' | 'in-process';

export function noteTransport(context: ServerCallContext, transport: A2aTransport): void {
  context.state.set(TRANSPORT, transport);
}

export function transportOf(context: ServerCallContext): A2aTransport {
  return (context.state.get(TRANSPORT) as A2aTransport | undefined) ?? 'in-process';
}

/** Records, before the SDK fills in ids, whether the caller's message named a context or task. */
export function noteContinuation(context: ServerCallContext, message: Message | undefined): void {
  noteConversation(context, Boolean(message?.contextId || message?.taskId));
}

/** Records whether the call continues a conversation (for callers that know, such as the orchestrator). */
export function noteConversation(context: ServerCallContext, continues: boolean): void {
  context.state.set(CONTINUES_CONVERSATION, continues);
}

/**
 * Whether the caller's message continues a conversation (it named a context or a task) rather
 * than starting one the SDK gave a fresh id. Unknown - a call that did not come through a hosted
 * agent's handler - counts as continuing: the answer that never skips a lookup.
 */
export function continuesConversation(context: ServerCallContext): boolean {
  return context.state.get(CONTINUES_CONVERSATION) !== false;
}

/** Notes that the call's execution starts here on `taskId`, which is `fresh` when the SDK just made it up. */
export function noteExecution(context: ServerCallContext, taskId: string, fresh: boolean): void {
  context.state.set(EXECUTION_TASK, taskId);
  if (fresh) context.state.set(NEW_TASK, taskId);
}

/** Whether `context` is the call whose execution runs `taskId` on this replica. */
export function isExecutionOf(context: ServerCallContext, taskId: string): boolean {
  return context.state.get(EXECUTION_TASK) === taskId;
}

/** True once for a task the SDK made up for this call (the first to ask learns it; later calls get false). */
export function takeNewTask(context: ServerCallContext, taskId: string): boolean {
  if (context.state.get(NEW_TASK) !== taskId) return false;
  context.state.delete(NEW_TASK);
  return true;
}
