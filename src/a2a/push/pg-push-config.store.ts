import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { SecretBox } from '../../platform/crypto/secret-box';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { ownerOf } from '../hosting/a2a-user';
import { PushConfigEntity } from './entities/push-config.entity';
import { TaskWebhooks } from './task-webhooks';
import { webhookUrlProblem } from './webhook-url';

/**
 * The SDK's PushNotificationStore for one hosted agent, on Postgres (read through each replica's
 * TaskWebhooks cache). Webhook tokens and credentials are sealed at rest; configs are scoped to
 * the caller's owner; each keeps the wire version it was registered over so its notifications
 * keep that shape.
 */
export class PgPushConfigStore implements PushNotificationStore {
  constructor(
    private readonly agentId: string,
    private readonly webhooks: TaskWebhooks,
    private readonly secrets: SecretBox,
    private readonly http: OutboundHttp,
  ) {}

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    await this.assertWebhook(config.url);
    if (!config.id) config.id = randomUUID();
    const entity = Object.assign(new PushConfigEntity(), {
      agentId: this.agentId,
      owner: ownerOf(context),
      taskId,
      configId: config.id,
      url: config.url,
      tokenSealed: config.token ? this.secrets.seal(config.token) : null,
      authScheme: config.authentication?.scheme || null,
      authCredentialsSealed: config.authentication?.credentials
        ? this.secrets.seal(config.authentication.credentials)
        : null,
      wireVersion: context.requestedVersion || '0.3',
      createdAt: new Date(),
    });
    await this.webhooks.save(entity);
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((c) => c.config);
  }

  async loadWithMetadata(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    const rows = await this.webhooks.of({ agentId: this.agentId, owner: ownerOf(context), taskId });
    return rows.map((row) => ({
      wireVersion: row.wireVersion,
      config: {
        tenant: '',
        id: row.configId,
        taskId: row.taskId,
        url: row.url,
        token: row.tokenSealed ? this.secrets.open(row.tokenSealed) : '',
        authentication:
          row.authScheme || row.authCredentialsSealed
            ? {
                scheme: row.authScheme ?? '',
                credentials: row.authCredentialsSealed ? this.secrets.open(row.authCredentialsSealed) : '',
              }
            : undefined,
      },
    }));
  }

  /** How many webhooks this replica has cached for the task; undefined when it has not read them. */
  cachedCount(taskId: string, context: ServerCallContext): number | undefined {
    return this.webhooks.cached({ agentId: this.agentId, owner: ownerOf(context), taskId })?.length;
  }

  /** The task was just made up for its first message: it has no webhooks but those that message registered. */
  noneYet(taskId: string, context: ServerCallContext): void {
    this.webhooks.noneYet({ agentId: this.agentId, owner: ownerOf(context), taskId });
  }

  /** Deleting a config that is not there is answered as getting it is (not found), not as a success. */
  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    const removed = await this.webhooks.remove({ agentId: this.agentId, owner: ownerOf(context), taskId }, configId);
    if (configId && removed === 0) {
      throw new TaskNotFoundError(`Push notification config with id '${configId}' not found for task ${taskId}.`);
    }
  }

  private async assertWebhook(url: string): Promise<void> {
    const problem = await webhookUrlProblem(this.http, url);
    if (problem) throw new RequestMalformedError(`Push notification url ${problem}`);
  }
}
