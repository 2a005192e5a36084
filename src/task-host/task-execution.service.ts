import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import type { Principal } from '../platform/auth/principal';
import { DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import { OutboundHttp } from '../platform/net/outbound-http';
import type { TaskInputDto } from './dto/task-input.dto';
import type { StoredPushConfig, TaskExecutionEntity } from './entities/task-execution.entity';
import { isFinished } from './entities/task.entity';
import { ExecutionRepository } from './engine/execution.repository';
import { TaskEngine } from './engine/task-engine';
import { taskEvent } from './engine/task-events';
import { TaskPushNotifier } from './push/task-push.notifier';
import { visibleTask } from './task-access';
import { TaskRepository } from './task.repository';
import { TaskTreeService } from './task-tree.service';

/** Where an execution's state changes are posted (`push_notification_config`). */
export interface PushConfigInput {
  url: string;
  method?: 'POST' | 'PUT';
  headers?: Record<string, string>;
}

export interface ExecuteRequest {
  /** The execution's id (the workflow agent makes it its A2A task's id); default a new uuid. */
  executionId?: string;
  /** Run the tree of this task. */
  taskId?: string;
  /** Or create these tasks first, then run their tree. */
  tasks?: TaskInputDto[];
  push?: PushConfigInput;
  /** Called once the execution exists, before it starts (streams subscribe here). */
  beforeStart?: (execution: TaskExecutionEntity) => Promise<void>;
}

export interface ExecutionStarted {
  rootTaskId: string;
  taskId: string;
  execution: TaskExecutionEntity;
}

/** tasks.execute and tasks.cancel: starting executions (leased to this replica) and stopping work. */
@Injectable()
export class TaskExecutionService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly trees: TaskTreeService,
    private readonly executions: ExecutionRepository,
    private readonly engine: TaskEngine,
    private readonly push: TaskPushNotifier,
    private readonly http: OutboundHttp,
  ) {}

  /**
   * Runs the task's whole tree: every task that is not completed runs again (failed and
   * cancelled ones included); completed results are kept. One execution per tree at a time.
   */
  async execute(principal: Principal, request: ExecuteRequest): Promise<ExecutionStarted> {
    const pushConfig = request.push ? await this.storedPushConfig(request.push) : null;
    const taskId = request.tasks ? (await this.trees.create(principal, request.tasks))[0].id : request.taskId;
    if (!taskId) throw DomainError.validation([{ field: 'task_id', reason: 'is required (or give tasks)' }]);
    const execution = await this.tasks
      .transaction(async (tx) => {
        const task = await visibleTask(principal, taskId, (id) => tx.findById(id));
        const root = (await tx.lock(task.rootId))!;
        await this.trees.assertNotRunning(tx, root.id);
        await tx.resetUnfinished(root.id);
        const now = new Date();
        const row: TaskExecutionEntity = {
          id: request.executionId ?? randomUUID(),
          rootId: root.id,
          userId: root.userId,
          status: 'running',
          leaseOwner: this.engine.owner,
          leaseExpiresAt: new Date(now.getTime() + this.engine.leaseMs),
          pushConfig,
          createdAt: now,
          updatedAt: now,
          finishedAt: null,
        };
        await this.executions.insert(tx.manager, row);
        return row;
      })
      .catch((error: unknown) => {
        if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505')
          throw new DomainError(ErrorCode.INVALID_STATE, 'The tree is already executing');
        throw error;
      });
    await request.beforeStart?.(execution);
    this.engine.adopt(execution);
    return { rootTaskId: execution.rootId, taskId, execution };
  }

  /** Cancels the task and its unfinished descendants; running work is stopped cooperatively. */
  async cancel(principal: Principal, taskId: string): Promise<{ taskId: string; cancelled: string[] }> {
    const { task, cancelled } = await this.tasks.transaction(async (tx) => {
      const found = await visibleTask(principal, taskId, (id) => tx.lock(id));
      if (isFinished(found.status))
        throw new DomainError(
          ErrorCode.INVALID_STATE,
          `Task ${taskId} is already ${found.status}; only pending or running tasks can be cancelled`,
          {
            details: { status: found.status },
          },
        );
      return { task: found, cancelled: await tx.cancel(await tx.subtreeIds(found.id), 'Cancelled') };
    });
    const execution = await this.executions.running(undefined, task.rootId);
    await this.engine.announceCancel(
      task.rootId,
      cancelled.map((t) => t.id),
    );
    for (const row of cancelled)
      this.engine.emit(execution?.id ?? '', execution?.pushConfig ?? null, taskEvent(row, execution?.id ?? ''));
    return { taskId: task.id, cancelled: cancelled.map((t) => t.id) };
  }

  private async storedPushConfig(input: PushConfigInput): Promise<StoredPushConfig> {
    await this.http.assertAllowed(input.url);
    return { url: input.url, method: input.method ?? 'POST', headersSealed: this.push.seal(input.headers) };
  }
}
