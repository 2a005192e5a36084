import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore, StoredValue } from '../../platform/kv/key-value-store';
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

  /** The stored context, or a new one (etag null) for a conversation not seen yet. */
  async load(owner: string, conversationId: string): Promise<ContextSnapshot> {
    return snapshot(conversationId, await this.kv.get(key(owner, conversationId)));
  }

  /**
   * Applies `change` to the context as `from` read it and writes it back with compare-and-set;
   * if another turn wrote in between, applies it again to that version (the store hands the
   * winner back, so a conflict costs no extra read).
   */
  async update(
    owner: string,
    from: ContextSnapshot,
    change: (context: OrchestrationContext) => OrchestrationContext,
  ): Promise<OrchestrationContext> {
    const conversationId = from.context.conversationId;
    const k = key(owner, conversationId);
    let current = from;
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const next = change(current.context);
      const written = await this.kv.compareAndSet(k, current.etag, JSON.stringify(next), { ttlMs: this.ttlMs });
      if (written.ok) return next;
      current = snapshot(conversationId, written.current);
    }
    throw new DomainError(
      ErrorCode.CONCURRENT_UPDATE,
      `Conversation ${conversationId} is being changed by another request; retry`,
    );
  }
}

/** A context as read, with the etag its write-back compares (null: not stored yet). */
export interface ContextSnapshot {
  context: OrchestrationContext;
  etag: string | null;
}

function snapshot(conversationId: string, stored: StoredValue | null): ContextSnapshot {
  return stored ? { context: parse(stored.value), etag: stored.etag } : { context: empty(conversationId), etag: null };
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
