import type { AgentCard, Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { AgentHost } from '../../a2a/hosting/agent-host';
import { SecretBox } from '../../platform/crypto/secret-box';
import { EventBus, Subscription } from '../../platform/events/event-bus';
import { AgentRepository } from '../agent.repository';
import { AgentEntity } from '../entities/agent.entity';
import { AgentThreads } from './agent-threads';
import { credentialHeaders } from './credential-headers';
import { RemoteAgentExecutor } from './remote-agent.executor';
import { RemoteClientFactory } from './remote-client.factory';
import { remoteProfile } from './remote-profile';

const CHANNEL = 'registry.agents';
/** How often each replica compares what it hosts with the database (pub/sub is at-most-once). */
const RECONCILE_INTERVAL_MS = 30_000;

interface RegistryChange {
  id: string;
  action: 'upsert' | 'delete';
  origin: string;
}

/**
 * Keeps every replica hosting the same remote agents: all registered agents are hosted at start,
 * a change made on one replica is announced on the EventBus so the others host, re-host or drop
 * the agent at once (Redis pub/sub across replicas), and every replica also reconciles with the
 * database every 30 s, which repairs anything a lost message left behind.
 */
@Injectable()
export class RemoteAgentHosting implements OnApplicationBootstrap, BeforeApplicationShutdown, OnModuleDestroy {
  private readonly logger = new Logger('Registry');
  private readonly replica = randomUUID();
  /** What this replica hosts, by id: a fingerprint of the stored agent it was built from. */
  private readonly hosted = new Map<string, string>();
  /** The hub's SDK client of each hosted remote agent (connected on first use). */
  private readonly connections = new Map<string, () => Promise<Client>>();
  private subscription?: Subscription;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly agents: AgentRepository,
    private readonly host: AgentHost,
    private readonly clients: RemoteClientFactory,
    private readonly threads: AgentThreads,
    private readonly secrets: SecretBox,
    private readonly events: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.events.subscribe(CHANNEL, (message) => this.onChange(message as RegistryChange));
    await this.reconcile();
    this.timer = setInterval(() => {
      this.reconcile().catch((error: Error) => this.logger.warn(`Could not reconcile hosted agents: ${error.message}`));
    }, RECONCILE_INTERVAL_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.unsubscribe().catch(() => undefined);
  }

  /** Hosts what the database holds and this replica lacks (or holds an older version of); drops the rest. */
  async reconcile(): Promise<void> {
    const stored = await this.agents.list();
    const ids = new Set(stored.map((a) => a.id));
    for (const agent of stored) if (this.hosted.get(agent.id) !== fingerprint(agent)) this.hostAgent(agent);
    for (const id of [...this.hosted.keys()]) {
      if (ids.has(id)) continue;
      this.host.unhost(id);
      this.hosted.delete(id);
      this.connections.delete(id);
    }
  }

  /** Hosts (or re-hosts) an agent here and tells the other replicas. */
  async publishHosted(agent: AgentEntity): Promise<void> {
    this.hostAgent(agent);
    await this.announce({ id: agent.id, action: 'upsert', origin: this.replica });
  }

  async publishRemoved(id: string): Promise<void> {
    this.host.unhost(id);
    this.hosted.delete(id);
    this.connections.delete(id);
    await this.announce({ id, action: 'delete', origin: this.replica });
  }

  /** The remote agent's own view of a hub task (undefined when the task never reached it). */
  async remoteTask(agentId: string, hubTaskId: string): Promise<Task | undefined> {
    const connect = this.connections.get(agentId);
    const link = connect && (await this.threads.remoteTask(agentId, hubTaskId));
    if (!connect || !link) return undefined;
    return (await connect()).getTask({ tenant: '', id: link.remoteTaskId, historyLength: 0 });
  }

  /** The agent's authenticated extended card, when its card offers one (read with the hub's credentials). */
  async extendedCard(agentId: string): Promise<AgentCard | undefined> {
    const connect = this.connections.get(agentId);
    const agent = connect && (await this.agents.findById(agentId));
    const card = agent?.card as
      { supportsAuthenticatedExtendedCard?: unknown; capabilities?: { extendedAgentCard?: unknown } } | undefined;
    if (
      !connect ||
      !(card?.supportsAuthenticatedExtendedCard === true || card?.capabilities?.extendedAgentCard === true)
    )
      return undefined;
    // The SDK's client fetches the extended card when the card offers one.
    return (await connect()).getAgentCard();
  }

  /** The credential headers the hub sends to an agent. */
  authHeaders(agent: AgentEntity): Record<string, string> {
    const secret = agent.authSecretSealed ? this.secrets.open(agent.authSecretSealed) : undefined;
    return credentialHeaders(agent.authMode, agent.authHeader, secret);
  }

  private hostAgent(agent: AgentEntity): void {
    let client: Promise<Client> | undefined;
    const connect = () => {
      client ??= this.clients.create(agent.card, agent.baseUrl, this.authHeaders(agent)).catch((error: unknown) => {
        client = undefined;
        throw error;
      });
      return client;
    };
    const capabilities = agent.card.capabilities as { streaming?: unknown } | undefined;
    const streaming = capabilities?.streaming === true;
    this.host.host({
      profile: remoteProfile(agent.id, agent.card),
      executor: new RemoteAgentExecutor(agent.id, connect, this.threads, streaming),
      // Sent on as one blocking call, the remote's answer is all there is by the time the executor
      // returns; a remote that streams to the hub publishes as it goes (and takes cancels meanwhile).
      settledOnReturn: !streaming,
    });
    this.hosted.set(agent.id, fingerprint(agent));
    this.connections.set(agent.id, connect);
  }

  private async onChange(change: RegistryChange): Promise<void> {
    if (change.origin === this.replica) return;
    if (change.action === 'delete') {
      this.host.unhost(change.id);
      this.hosted.delete(change.id);
      this.connections.delete(change.id);
      return;
    }
    const agent = await this.agents.findById(change.id);
    if (agent) this.hostAgent(agent);
    else {
      this.host.unhost(change.id);
      this.hosted.delete(change.id);
      this.connections.delete(change.id);
    }
  }

  private async announce(change: RegistryChange): Promise<void> {
    await this.events.publish(CHANNEL, change).catch((error: Error) => {
      this.logger.warn(`Could not tell other replicas that agent ${change.id} changed: ${error.message}`);
    });
  }
}

/** What hosting depends on: where the agent is, its card and how the hub authenticates to it. */
function fingerprint(agent: AgentEntity): string {
  return createHash('sha256')
    .update(JSON.stringify([agent.baseUrl, agent.card, agent.authMode, agent.authHeader, agent.authSecretSealed]))
    .digest('hex');
}
