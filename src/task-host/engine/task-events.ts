import { Injectable, Logger } from '@nestjs/common';
import { EventBus, Subscription } from '../../platform/events/event-bus';
import type { TaskEntity, TaskStatus } from '../entities/task.entity';

export const TASK_EVENT_TYPES = [
  'task_status_update',
  'task_progress_update',
  'task_completed',
  'task_failed',
  'task_cancelled',
  'final',
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

export interface TaskEventData {
  protocol: 'a2a';
  task_id: string;
  root_task_id: string;
  execution_id: string;
  status: TaskStatus;
  progress: number;
  result?: unknown;
  error?: string | null;
  /** Set on the execution's last event. */
  final?: true;
  timestamp: string;
}

/** What watchers (SSE, WebSocket, gRPC) and webhooks receive. */
export interface TaskEvent {
  event: TaskEventType;
  data: TaskEventData;
}

const channelOf = (rootId: string) => `taskhost:tree:${rootId}`;

/** The event for a task's current state. */
export function taskEvent(
  task: Pick<TaskEntity, 'id' | 'rootId' | 'status' | 'progress' | 'result' | 'error'>,
  executionId: string,
  progressOnly = false,
): TaskEvent {
  const data: TaskEventData = {
    protocol: 'a2a',
    task_id: task.id,
    root_task_id: task.rootId,
    execution_id: executionId,
    status: task.status,
    progress: task.progress,
    timestamp: new Date().toISOString(),
  };
  if (task.status === 'completed') data.result = task.result ?? null;
  if (task.status === 'failed' || task.status === 'cancelled') data.error = task.error;
  return { event: progressOnly ? 'task_progress_update' : typeFor(task.status), data };
}

function typeFor(status: TaskStatus): TaskEventType {
  switch (status) {
    case 'completed':
      return 'task_completed';
    case 'failed':
      return 'task_failed';
    case 'cancelled':
      return 'task_cancelled';
    default:
      return 'task_status_update';
  }
}

/**
 * Task-tree events on the EventBus, one channel per tree: a watcher on any replica sees the work
 * of the replica running the tree. Publishing never fails the work: a lost event is logged.
 */
@Injectable()
export class TaskEvents {
  private readonly logger = new Logger('TaskEvents');

  constructor(private readonly bus: EventBus) {}

  async publish(event: TaskEvent): Promise<void> {
    await this.bus.publish(channelOf(event.data.root_task_id), event).catch((error: Error) => {
      this.logger.warn(`Could not publish ${event.event} for task ${event.data.task_id}: ${error.message}`);
    });
  }

  watch(rootId: string, handler: (event: TaskEvent) => void): Promise<Subscription> {
    return this.bus.subscribe(channelOf(rootId), (message) => handler(message as TaskEvent));
  }
}
