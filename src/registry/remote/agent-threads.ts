import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { KeyValueStore } from '../../platform/kv/key-value-store';

export interface RemoteTaskLink {
  remoteTaskId: string;
  remoteContextId: string;
  /** The hub's own context id for the task. */
  contextId: string;
}

/**
 * The hub keeps its own task and context ids; this remembers which remote ids stand behind them,
 * per agent and owner, in the key-value store so any replica can continue a conversation or
 * forward a cancel. Entries live A2A_TASK_TTL_SECONDS from the last turn that used them.
 *
 * Links are written unconfirmed (KeyValueStore.setUnconfirmed): a link is on its way to Redis
 * before the answer that carries its ids leaves the hub, so the next turn - on this replica or,
 * once the client has the answer, another - finds it; but the answer does not wait another round
 * trip for Redis to confirm it. A link that fails to be written is logged: the conversation's next
 * turn then starts a new conversation on the remote agent, and the answer already given stands.
 */
@Injectable()
export class AgentThreads {
  private readonly logger = new Logger('AgentThreads');
  private readonly ttlMs: number;

  constructor(
    private readonly kv: KeyValueStore,
    config: AppConfig,
  ) {
    this.ttlMs = config.a2a.taskTtlSeconds * 1000;
  }

  /** The remote context behind a conversation, renewing the link (one round trip). */
  async remoteContext(agentId: string, owner: string, hubContextId: string): Promise<string | undefined> {
    return (await this.kv.getAndRenew(contextKey(agentId, owner, hubContextId), this.ttlMs))?.value;
  }

  linkContext(agentId: string, owner: string, hubContextId: string, remoteContextId: string): Promise<void> {
    return this.kv.setUnconfirmed(
      contextKey(agentId, owner, hubContextId),
      remoteContextId,
      { ttlMs: this.ttlMs },
      (error) => this.lost(`conversation ${hubContextId}`, agentId, error),
    );
  }

  /**
   * The remote task behind a hub task, renewing the link. Keyed by the hub's task id alone (a
   * UUID the hub made): the SDK checked ownership already.
   */
  async remoteTask(agentId: string, hubTaskId: string): Promise<RemoteTaskLink | undefined> {
    const stored = await this.kv.getAndRenew(taskKey(agentId, hubTaskId), this.ttlMs);
    return stored ? (JSON.parse(stored.value) as RemoteTaskLink) : undefined;
  }

  linkTask(agentId: string, hubTaskId: string, link: RemoteTaskLink): Promise<void> {
    return this.kv.setUnconfirmed(taskKey(agentId, hubTaskId), JSON.stringify(link), { ttlMs: this.ttlMs }, (error) =>
      this.lost(`task ${hubTaskId}`, agentId, error),
    );
  }

  private lost(what: string, agentId: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Could not record which remote ids stand behind ${what} of agent ${agentId}: ${reason}`);
  }
}

function contextKey(agentId: string, owner: string, hubContextId: string): string {
  return `a2a:proxy:ctx:${agentId}:${owner}:${hubContextId}`;
}

function taskKey(agentId: string, hubTaskId: string): string {
  return `a2a:proxy:task:${agentId}:${hubTaskId}`;
}
