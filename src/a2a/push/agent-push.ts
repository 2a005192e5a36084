import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../platform/crypto/secret-box';
import { Metrics } from '../../platform/metrics/metrics';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { PgPushConfigStore } from './pg-push-config.store';
import { PushConfigRepository } from './push-config.repository';
import { PushSubscriptions } from './push-subscriptions';
import { RetryingPushSender } from './retrying-push.sender';
import { TaskWebhooks } from './task-webhooks';

/**
 * Push notifications for each hosted agent: its webhook store and its sender. Keeps the senders
 * so shutdown can let queued notifications go out (`drain`).
 */
@Injectable()
export class AgentPush {
  private readonly senders = new Map<string, RetryingPushSender>();

  constructor(
    private readonly webhooks: TaskWebhooks,
    private readonly configs: PushConfigRepository,
    private readonly subscriptions: PushSubscriptions,
    private readonly secrets: SecretBox,
    private readonly outbound: OutboundHttp,
    private readonly metrics: Metrics,
  ) {}

  forAgent(agentId: string): { store: PgPushConfigStore; sender: RetryingPushSender } {
    const store = new PgPushConfigStore(agentId, this.webhooks, this.secrets, this.outbound);
    const sender = new RetryingPushSender(
      agentId,
      store,
      this.configs,
      this.outbound,
      this.subscriptions,
      this.metrics,
    );
    this.senders.set(agentId, sender);
    return { store, sender };
  }

  forget(agentId: string): void {
    this.senders.delete(agentId);
  }

  /** Resolves when every notification queued so far has been sent or given up on, or at the deadline. */
  async drain(deadlineMs = Infinity): Promise<void> {
    const drained = Promise.all([...this.senders.values()].map((sender) => sender.drain()));
    if (!Number.isFinite(deadlineMs)) return void (await drained);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
    clearTimeout(timer);
  }
}
