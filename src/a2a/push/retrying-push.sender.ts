import type { StreamResponse, Task } from '@a2a-js/sdk';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  PushNotificationSender,
  ServerCallContext,
  StoredPushNotificationConfig,
  V1PushNotificationSerializer,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Metrics } from '../../platform/metrics/metrics';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { deliverWebhook, describeTarget } from '../../platform/net/webhook-delivery';
import { ownerOf } from '../hosting/a2a-user';
import { takeNewTask } from '../hosting/call-state';
import { PushDeliveryEntity } from './entities/push-delivery.entity';
import { PushEvent } from './entities/push-subscription.entity';
import { PgPushConfigStore } from './pg-push-config.store';
import { PushConfigRepository } from './push-config.repository';
import type { PushSubscriptions } from './push-subscriptions';

const TOKEN_HEADER = 'X-A2A-Notification-Token';
/** Waits before the 2nd, 3rd and 4th attempt. */
export const PUSH_RETRY_DELAYS_MS = [250, 1_000, 4_000];

const serializers = { '1.0': new V1PushNotificationSerializer(), '0.3': new V03PushNotificationSerializer() };

/**
 * Sends the SDK's push notifications through the SSRF-guarded client, in the wire format each
 * webhook was registered with, retrying failed deliveries with backoff (a 4xx other than 408 and
 * 429 is final), and logging every delivery. Notifications for one task go out in order.
 */
export class RetryingPushSender implements PushNotificationSender {
  private readonly logger = new Logger('PushNotifications');
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly agentId: string,
    private readonly store: PgPushConfigStore,
    private readonly configs: PushConfigRepository,
    private readonly http: OutboundHttp,
    private readonly subscriptions?: PushSubscriptions,
    private readonly metrics?: Metrics,
    private readonly retryDelaysMs: readonly number[] = PUSH_RETRY_DELAYS_MS,
  ) {}

  async send(streamResponse: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(streamResponse);
    if (!taskId) return;
    if (takeNewTask(context, taskId)) this.store.noneYet(taskId, context);
    // Nearly every event: nothing queued for the task, and no webhook known to want it.
    if (!this.chains.has(taskId) && this.knownToHaveNoTargets(streamResponse, taskId, context)) return;
    // Join the task's queue before anything async, so notifications leave in the order of events.
    const previous = this.chains.get(taskId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const targets = [
        ...(await this.store.loadWithMetadata(taskId, context)),
        ...(await this.subscribers(streamResponse, taskId, context)),
      ];
      await Promise.all(targets.map((target) => this.deliver(streamResponse, target, taskId, task)));
    });
    const settled = next.catch((error: Error) => {
      this.logger.warn(`Push notifications for task ${taskId} failed: ${error.message}`);
    });
    this.chains.set(taskId, settled);
    await settled.finally(() => {
      if (this.chains.get(taskId) === settled) this.chains.delete(taskId);
    });
  }

  /** Resolves when every notification queued so far has been delivered or given up on, and logged. */
  async drain(): Promise<void> {
    await Promise.all(this.chains.values());
    await this.configs.deliveriesRecorded();
  }

  /** Whether what this replica has cached says there is nobody to notify (no query made to find out). */
  private knownToHaveNoTargets(streamResponse: StreamResponse, taskId: string, context: ServerCallContext): boolean {
    if (this.store.cachedCount(taskId, context) !== 0) return false;
    const kinds = eventKinds(streamResponse);
    if (kinds.length === 0 || !this.subscriptions) return true;
    const subscriptions = this.subscriptions.cached(this.agentId, ownerOf(context));
    return subscriptions !== undefined && !subscriptions.some((s) => s.events.some((event) => kinds.includes(event)));
  }

  /** The owner's agent-wide webhooks that asked for this kind of update; they get the v1.0 wire format. */
  private async subscribers(
    streamResponse: StreamResponse,
    taskId: string,
    context: ServerCallContext,
  ): Promise<StoredPushNotificationConfig[]> {
    const kinds = eventKinds(streamResponse);
    if (kinds.length === 0 || !this.subscriptions) return [];
    const subscriptions = await this.subscriptions.of(this.agentId, ownerOf(context));
    return subscriptions
      .filter((subscription) => subscription.events.some((event) => kinds.includes(event)))
      .map((subscription) => ({
        wireVersion: '1.0',
        config: {
          tenant: '',
          id: subscription.id,
          taskId,
          url: subscription.url,
          token: '',
          authentication: undefined,
        },
      }));
  }

  private async deliver(
    streamResponse: StreamResponse,
    target: StoredPushNotificationConfig,
    taskId: string,
    task?: Task,
  ): Promise<void> {
    const serializer = target.wireVersion === '0.3' ? serializers['0.3'] : serializers['1.0'];
    const { body, contentType } = serializer.serialize(streamResponse, task);
    const headers: Record<string, string> = { 'Content-Type': contentType, ...authHeaders(target.config) };
    const { attempts, httpStatus, error } = await deliverWebhook(
      this.http,
      target.config.url,
      { method: 'POST', headers, body },
      this.retryDelaysMs,
    );
    this.metrics?.pushDelivery('a2a', !error);
    if (error)
      this.logger.warn(`Push notification for task ${taskId} to ${describeTarget(target.config.url)} failed: ${error}`);
    await this.configs
      .logDelivery(
        Object.assign(new PushDeliveryEntity(), {
          id: randomUUID(),
          agentId: this.agentId,
          taskId,
          configId: target.config.id,
          target: describeTarget(target.config.url),
          event: streamResponse.payload?.$case ?? 'unknown',
          outcome: error ? 'failed' : 'delivered',
          attempts,
          httpStatus,
          error,
          createdAt: new Date(),
        }),
      )
      .catch((logError: Error) => this.logger.warn(`Could not log a push delivery: ${logError.message}`));
  }
}

function taskIdOf(streamResponse: StreamResponse): string {
  const payload = streamResponse.payload;
  switch (payload?.$case) {
    case 'task':
      return payload.value.id;
    case 'statusUpdate':
    case 'artifactUpdate':
    case 'message':
      return payload.value.taskId;
    default:
      return '';
  }
}

/** What an update is, in the terms of agent-wide subscriptions: a task snapshot tells its status, and its artifacts if it has any. */
function eventKinds(streamResponse: StreamResponse): PushEvent[] {
  const payload = streamResponse.payload;
  switch (payload?.$case) {
    case 'statusUpdate':
      return ['status_update'];
    case 'artifactUpdate':
      return ['artifact_update'];
    case 'task':
      return payload.value.artifacts.length > 0 ? ['status_update', 'artifact_update'] : ['status_update'];
    default:
      return [];
  }
}

/** Authentication (scheme + credentials) wins over the bare token, as in the SDK's own sender. */
function authHeaders(config: StoredPushNotificationConfig['config']): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials) {
    return { Authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  }
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}
