import { Injectable } from '@nestjs/common';
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
 */
@Injectable()
export class AgentThreads {
  private readonly ttlMs: number;

  constructor(
    private readonly kv: KeyValueStore,
    config: AppConfig,
  ) {
    this.ttlMs = config.a2a.taskTtlSeconds * 1000;
  }

  async remoteContext(agentId: string, owner: string, hubContextId: string): Promise<string | undefined> {
    return (await this.kv.get(`a2a:proxy:ctx:${agentId}:${owner}:${hubContextId}`))?.value;
  }

  async linkContext(agentId: string, owner: string, hubContextId: string, remoteContextId: string): Promise<void> {
    await this.kv.set(`a2a:proxy:ctx:${agentId}:${owner}:${hubContextId}`, remoteContextId, { ttlMs: this.ttlMs });
  }

  /** Keyed by the hub's task id alone (a UUID the hub made): the SDK checked ownership already. */
  async remoteTask(agentId: string, hubTaskId: string): Promise<RemoteTaskLink | undefined> {
    const stored = await this.kv.get(`a2a:proxy:task:${agentId}:${hubTaskId}`);
    return stored ? (JSON.parse(stored.value) as RemoteTaskLink) : undefined;
  }

  async linkTask(agentId: string, hubTaskId: string, link: RemoteTaskLink): Promise<void> {
    await this.kv.set(`a2a:proxy:task:${agentId}:${hubTaskId}`, JSON.stringify(link), { ttlMs: this.ttlMs });
  }
}
