import { Message, Task, TaskState } from '@a2a-js/sdk';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DEFAULT_AGENT_ID } from '../a2a/agent-profile';
import { userTextMessage } from '../a2a/executors/agent-messages';
import { A2aUser } from '../a2a/hosting/a2a-user';
import { AgentHost } from '../a2a/hosting/agent-host';
import { callContextFor } from '../a2a/hosting/call-context';
import type { Principal } from '../platform/auth/principal';
import { textOf } from './agent-runner';
import { orchestrationErrorOf } from './orchestration-failure';
import type { ConversationReplyDto } from './http/conversation.dto';

/**
 * The REST conversation API over the orchestrator: a text in, a text out, the conversation kept
 * by its id - the same orchestrator and context store as A2A callers use (the conversation id is
 * the A2A contextId).
 */
@Injectable()
export class ConversationService {
  private readonly logger = new Logger('Conversation');

  constructor(private readonly host: AgentHost) {}

  /** The caller's conversation id, or a new one (32 hex characters, as Home Assistant makes them). */
  conversationIdFor(given: string | null | undefined): string {
    return given?.trim() || randomUUID().replace(/-/g, '');
  }

  /** `httpBase`: where the caller reached the hub, for links in agents' answers. */
  async reply(
    principal: Principal,
    text: string,
    conversationId: string,
    httpBase?: string,
  ): Promise<ConversationReplyDto> {
    const orchestrator = this.host.require(DEFAULT_AGENT_ID);
    try {
      const result = await orchestrator.handler.sendMessage(
        { tenant: '', message: userTextMessage(text, conversationId), configuration: undefined, metadata: undefined },
        callContextFor(DEFAULT_AGENT_ID, new A2aUser(principal, httpBase)),
      );
      return toReply(result, conversationId);
    } catch (error) {
      // The orchestrator's own failures, and what the hub's guard lets callers read (a store down).
      const failure = orchestrationErrorOf(error);
      if (!failure) this.logger.warn(`Conversation failed: ${(error as Error).message}`);
      const userMessage = failure?.userMessage ?? (error as Error).message;
      return {
        text: userMessage,
        type: 'error',
        conversationId,
        needsInput: false,
        error: failure && {
          errorCode: failure.errorCode,
          userMessage: failure.userMessage,
          suggestedAction: failure.suggestedAction,
        },
      };
    }
  }
}

function toReply(result: Message | Task, conversationId: string): ConversationReplyDto {
  if (!('status' in result)) {
    return { text: textOf(result.parts), type: 'response', conversationId, needsInput: false };
  }
  const state = result.status?.state;
  const text = result.status?.message ? textOf(result.status.message.parts) : '';
  const needsInput = state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED;
  return { text, type: needsInput ? 'question' : 'response', conversationId, needsInput };
}
