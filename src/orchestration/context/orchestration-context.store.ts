import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import type { OrchestrationContext } from '../orchestration.types';

const MAX_WRITE_ATTEMPTS = 8;

/**
 * Conversations as the orchestrator remembers them, in the key-value store (Redis across
 * replicas) with a TTL renewed on every turn, keyed by the caller's owner and the A2A contextId
 * - so any replica continues a conversation, and one tenant never sees another's. Writes are
 * compare-and-set: a turn applies its change to the latest version, so two replicas answering
 * turns of one conversation at once lose neither.
 */
@Injectable()
export class OrchestrationContextStore {
  private readonly ttlMs: number;

  constructor(
    private readonly kv: KeyValueStore,
    config: AppConfig,
  ) {
    this.ttlMs = config.orchestration.contextTtlSeconds * 1000;
  }

  async load(owner: string, conversationId: string): Promise<OrchestrationContext | undefined> {
    const stored = await this.kv.get(key(owner, conversationId));
    return stored ? parse(stored.value) : undefined;
  }

  /** Applies `change` to the stored context (or a new one) and writes it back atomically. */
  async update(
    owner: string,
    conversationId: string,
    change: (context: OrchestrationContext) => OrchestrationContext,
  ): Promise<OrchestrationContext> {
    const k = key(owner, conversationId);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.kv.get(k);
      const next = change(current ? parse(current.value) : empty(conversationId));
      const written = await this.kv.compareAndSet(k, current?.etag ?? null, JSON.stringify(next), {
        ttlMs: this.ttlMs,
      });
      if (written.ok) return next;
    }
    throw new DomainError(
      ErrorCode.CONFLICT,
      `Conversation ${conversationId} is being changed by another request; retry`,
    );
  }
}

export function empty(conversationId: string): OrchestrationContext {
  return { conversationId, agentThreads: {}, history: [] };
}

function key(owner: string, conversationId: string): string {
  return `orchestration:ctx:${owner}:${conversationId}`;
}

function parse(value: string): OrchestrationContext {
  const context = JSON.parse(value) as OrchestrationContext;
  return { ...context, agentThreads: context.agentThreads ?? {}, history: context.history ?? [] };
}
