import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { A2aUser } from '../../a2a/hosting/a2a-user';
import { AgentHost } from '../../a2a/hosting/agent-host';
import { callContextFor } from '../../a2a/hosting/call-context';
import { A2aTaskRepository, fromArchive } from '../../a2a/store/a2a-task.repository';
import { isTerminal } from '../../a2a/store/task-merge';
import { TaskPersistenceRecord, taskRecordKey } from '../../a2a/store/task-record';
import { OrchestrationContextStore } from '../../orchestration/context/orchestration-context.store';
import { Principal } from '../../platform/auth/principal';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { EventBus } from '../../platform/events/event-bus';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { redactSecrets } from './redact-secrets';

export const A2A_RECORD_EVENTS_CHANNEL = 'taskhost:a2a-records';

export interface A2aTaskRecordView {
  taskId: string;
  agentId: string;
  owner: string;
  task: unknown;
  context: unknown;
  expiresAtUtc: string | null;
  etag: string | null;
  /** True when the live record expired and this is the archived final task from Postgres. */
  archived: boolean;
}

interface Located {
  agentId: string;
  owner: string;
  record: TaskPersistenceRecord | null;
  etag: string | null;
  archived: unknown;
}

const WAITING = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/**
 * Operator access to the hub's A2A task records (scope `internal`): inspect one with secrets
 * redacted, rehydrate it onto this replica after a failover, delete it. Resumes and deletes are
 * published on the EventBus and logged.
 */
@Injectable()
export class A2aTaskRecordsService {
  private readonly logger = new Logger('A2aTaskRecords');

  constructor(
    private readonly kv: KeyValueStore,
    private readonly rows: A2aTaskRepository,
    private readonly host: AgentHost,
    private readonly contexts: OrchestrationContextStore,
    private readonly bus: EventBus,
  ) {}

  async inspect(taskId: string): Promise<A2aTaskRecordView> {
    const found = await this.locate(taskId);
    const task = (found.record?.task ?? found.archived) as { contextId?: string } | undefined;
    const conversation = task?.contextId ? await this.contexts.load(found.owner, task.contextId) : undefined;
    return redactSecrets({
      taskId,
      agentId: found.agentId,
      owner: found.owner,
      task: found.record?.task ?? found.archived,
      context: conversation?.etag ? conversation.context : (found.record?.context ?? null),
      expiresAtUtc: found.record?.expiresAtUtc ?? null,
      etag: found.etag,
      archived: found.record === null,
    }) as A2aTaskRecordView;
  }

  /**
   * Reloads the live record and runs the task again on this replica, from its latest user
   * message, as its owner: for a task whose replica died while it was submitted or working.
   */
  async rehydrate(taskId: string, by: Principal): Promise<{ taskId: string; agentId: string; state: string }> {
    const found = await this.locate(taskId);
    if (!found.record) throw cannotRehydrate(taskId, 'it has finished and only its archive is left');
    const task = Task.fromJSON(found.record.task);
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (isTerminal(state)) throw cannotRehydrate(taskId, `it is ${stateName(state)}`);
    if (WAITING.has(state)) throw cannotRehydrate(taskId, `it is waiting for the caller (${stateName(state)})`);
    const agent = this.host.get(found.agentId);
    if (!agent)
      throw new DomainError(ErrorCode.INVALID_STATE, `Agent ${found.agentId} of task ${taskId} is not hosted`);
    const context = callContextFor(
      found.agentId,
      new A2aUser(new Principal(by.keyId, by.keyName, found.owner, ['messages'])),
    );
    if (this.host.isRunningHere(found.agentId, taskId, context))
      throw cannotRehydrate(taskId, 'it is already running on this replica');
    const last = [...task.history].reverse().find((message) => message.role === Role.ROLE_USER);
    if (!last) throw cannotRehydrate(taskId, 'it has no user message to resume from');
    const message: Message = { ...last, messageId: randomUUID(), taskId, contextId: task.contextId };
    void agent.handler
      .sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined }, context)
      .catch((error: Error) => this.logger.warn(`Rehydrated task ${taskId} failed: ${error.message}`));
    await this.announce('a2a_task.resumed', found, taskId, by);
    return { taskId, agentId: found.agentId, state: stateName(state) };
  }

  async remove(taskId: string, by: Principal): Promise<void> {
    const found = await this.locate(taskId);
    await this.kv.delete(taskRecordKey(found.agentId, found.owner, taskId));
    await this.rows.remove(found.agentId, found.owner, taskId);
    await this.announce('a2a_task.deleted', found, taskId, by);
  }

  private async locate(taskId: string): Promise<Located> {
    for (const row of await this.rows.findByTaskId(taskId)) {
      const stored = await this.kv.get(taskRecordKey(row.agentId, row.owner, taskId));
      if (stored || row.finalTask) {
        return {
          agentId: row.agentId,
          owner: row.owner,
          record: stored ? (JSON.parse(stored.value) as TaskPersistenceRecord) : null,
          etag: stored?.etag ?? null,
          archived: fromArchive(row.finalTask),
        };
      }
    }
    throw new DomainError(ErrorCode.NOT_FOUND, `A2A task not found: ${taskId}`, { details: { task_id: taskId } });
  }

  private async announce(type: string, found: Located, taskId: string, by: Principal): Promise<void> {
    const event = {
      type,
      task_id: taskId,
      agent_id: found.agentId,
      owner: found.owner,
      by_key: by.keyId,
      at: new Date().toISOString(),
    };
    this.logger.log({ ...event }, `${type} ${taskId} (agent ${found.agentId}) by key ${by.keyId}`);
    await this.bus.publish(A2A_RECORD_EVENTS_CHANNEL, event).catch((error: Error) => {
      this.logger.warn(`Could not publish ${type} for ${taskId}: ${error.message}`);
    });
  }
}

function cannotRehydrate(taskId: string, why: string): DomainError {
  return new DomainError(ErrorCode.INVALID_STATE, `Task ${taskId} cannot be rehydrated: ${why}`, {
    details: { task_id: taskId },
  });
}

function stateName(state: TaskState): string {
  return TaskState[state]?.replace(/^TASK_STATE_/, '').toLowerCase() ?? String(state);
}
