import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { SecretBox } from '../../platform/crypto/secret-box';
import { deleteBatch, Retention } from '../../platform/database/retention';
import { Metrics } from '../../platform/metrics/metrics';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { deliverWebhook, describeTarget } from '../../platform/net/webhook-delivery';
import type { StoredPushConfig } from '../entities/task-execution.entity';
import { TaskPushDeliveryEntity } from '../entities/task-push-delivery.entity';
import type { TaskEvent } from '../engine/task-events';

/** Waits before the 2nd, 3rd and 4th attempt. */
export const TASK_PUSH_RETRY_DELAYS_MS = [250, 1_000, 4_000];

/**
 * Posts an execution's state changes to its webhook (`push_notification_config`): `{task_id,
 * status, progress, result}` plus `root_task_id`, `error`, `event` and `timestamp`, with the
 * configured headers, through the SSRF-guarded client; retries 5xx, 408, 429 and network errors
 * with backoff; logs every delivery in task_push_deliveries. One execution's notifications go
 * out in order.
 */
@Injectable()
export class TaskPushNotifier {
  private readonly logger = new Logger('TaskPushNotifications');
  private readonly chains = new Map<string, Promise<void>>();
  private readonly deliveries: Repository<TaskPushDeliveryEntity>;
  retryDelaysMs: readonly number[] = TASK_PUSH_RETRY_DELAYS_MS;

  constructor(
    private readonly http: OutboundHttp,
    private readonly secrets: SecretBox,
    @Inject(DataSource) dataSource: DataSource,
    private readonly metrics: Metrics,
    retention: Retention,
  ) {
    this.deliveries = dataSource.getRepository(TaskPushDeliveryEntity);
    retention.register({
      kind: 'task_push_deliveries',
      setting: 'pushDeliveryDays',
      prune: (cutoff, batch) => deleteBatch(dataSource, 'task_push_deliveries', 'created_at < $1', cutoff, batch),
    });
  }

  seal(headers: Record<string, string> | undefined): string | null {
    return headers && Object.keys(headers).length > 0 ? this.secrets.seal(JSON.stringify(headers)) : null;
  }

  /** Queues the event for the execution's webhook; resolves when it is delivered or given up on. */
  notify(executionId: string, config: StoredPushConfig | null, event: TaskEvent): Promise<void> {
    if (!config) return Promise.resolve();
    const previous = this.chains.get(executionId) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(executionId, config, event));
    const settled = next.catch((error: Error) => this.logger.warn(`Push notification failed: ${error.message}`));
    this.chains.set(executionId, settled);
    void settled.finally(() => {
      if (this.chains.get(executionId) === settled) this.chains.delete(executionId);
    });
    return settled;
  }

  /** Resolves when every notification queued so far has been delivered or given up on. */
  async drain(): Promise<void> {
    await Promise.all(this.chains.values());
  }

  private async deliver(executionId: string, config: StoredPushConfig, event: TaskEvent): Promise<void> {
    const { data } = event;
    const body = JSON.stringify({
      task_id: data.task_id,
      root_task_id: data.root_task_id,
      status: data.status,
      progress: data.progress,
      result: data.result ?? null,
      ...(data.error ? { error: data.error } : {}),
      event: event.event,
      protocol: data.protocol,
      timestamp: data.timestamp,
      ...(data.final ? { final: true } : {}),
    });
    const headers: Record<string, string> = {
      ...(config.headersSealed ? (JSON.parse(this.secrets.open(config.headersSealed)) as Record<string, string>) : {}),
      'Content-Type': 'application/json',
    };
    const { attempts, httpStatus, error } = await deliverWebhook(
      this.http,
      config.url,
      { method: config.method, headers, body },
      this.retryDelaysMs,
    );
    this.metrics.pushDelivery('task_tree', !error);
    const target = describeTarget(config.url);
    if (error) this.logger.warn(`Push notification for task ${data.task_id} to ${target} failed: ${error}`);
    await this.deliveries
      .insert({
        id: randomUUID(),
        executionId,
        taskId: data.task_id,
        target,
        status: data.status,
        outcome: error ? 'failed' : 'delivered',
        attempts,
        httpStatus,
        error,
        createdAt: new Date(),
      })
      .catch((logError: Error) => this.logger.warn(`Could not log a push delivery: ${logError.message}`));
  }

  /** The delivery log of an execution, oldest first. */
  deliveriesOf(executionId: string): Promise<TaskPushDeliveryEntity[]> {
    return this.deliveries.find({ where: { executionId }, order: { createdAt: 'ASC' } });
  }
}
