import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../platform/config/app-config';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { outboundFailureReason } from '../../platform/net/outbound-failures';
import { AgentRepository } from '../agent.repository';
import { AgentEntity } from '../entities/agent.entity';
import { RemoteAgentHosting } from './remote-agent-hosting';

const CHECK_TIMEOUT_MS = 5_000;
const LOCK_KEY = 'registry:health-check';

/**
 * Every AGENT_HEALTH_CHECK_INTERVAL_SECONDS, fetches each remote agent's card and records
 * whether it answered (status connected / unreachable, last_seen_at, the error). One replica
 * checks per interval: they take turns through a lock in the key-value store.
 */
@Injectable()
export class AgentHealthChecker implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('AgentHealth');
  private readonly replica = randomUUID();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly agents: AgentRepository,
    private readonly http: OutboundHttp,
    private readonly kv: KeyValueStore,
    private readonly hosting: RemoteAgentHosting,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.config.registry.healthCheckIntervalSeconds;
    if (seconds === 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.checkIfOurTurn(seconds * 1000).finally(() => (this.running = undefined));
    }, seconds * 1000);
    this.timer.unref();
  }

  /** No new round once shutdown starts; a round already running finishes before the pools close. */
  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running;
  }

  /** Checks every remote agent now; returns them with their new status. */
  async checkAll(): Promise<AgentEntity[]> {
    const agents = (await this.agents.list()).filter((a) => a.status !== 'disabled');
    await Promise.all(agents.map((agent) => this.check(agent)));
    return this.agents.list();
  }

  private async checkIfOurTurn(intervalMs: number): Promise<void> {
    try {
      const turn = await this.kv.compareAndSet(LOCK_KEY, null, this.replica, {
        ttlMs: Math.max(1000, intervalMs - 500),
      });
      if (turn.ok) await this.checkAll();
    } catch (error) {
      this.logger.warn(`Agent health check skipped: ${(error as Error).message}`);
    }
  }

  private async check(agent: AgentEntity): Promise<void> {
    let error: string | null = null;
    try {
      const response = await this.http.getJson(agent.cardUrl, {
        timeoutMs: CHECK_TIMEOUT_MS,
        credentials: this.hosting.authHeaders(agent),
      });
      if (response.status !== 200) error = `card answered HTTP ${response.status}`;
    } catch (failure) {
      error = outboundFailureReason(failure);
    }
    const status = error ? 'unreachable' : 'connected';
    if (status !== agent.status) {
      const detail = error ? `: ${error}` : '';
      this.logger.log(`Agent ${agent.id} is ${status}${detail}`);
    }
    await this.agents.recordCheck(agent.id, status, error, new Date());
  }
}
