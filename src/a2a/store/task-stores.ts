import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { A2aTaskRepository } from './a2a-task.repository';
import { KvTaskStore } from './kv-task.store';
import { LiveTasks } from './live-tasks';
import { RecordTtl } from './task-record-writer';

/** How long a finished task's record stays in an in-process key-value store (at most). */
const IN_PROCESS_FINISHED_MS = 10_000;

/**
 * Makes each hosted agent's task store; they share this replica's memory of live tasks.
 *
 * How long records are kept: A2A_TASK_TTL_SECONDS, except a finished task's in an in-process
 * store (the embedded default), which keeps it 10 seconds. There the store is this process's own
 * memory - one replica, gone with a restart - so a finished record is no safety net for its
 * archive row (the write-behind queue holds that until it is written) and only spares `tasks/get`
 * a query; kept a day, each task served held ~1 KB of heap for a day, and an embedded hub grew
 * ~2.4 KB of RSS per task and slowed as its garbage collections grew (bench/README.md). In Redis a
 * record is what other replicas read, and what outlives a replica that dies before its row is
 * written: it keeps the full TTL.
 */
@Injectable()
export class TaskStores {
  private readonly live = new LiveTasks();
  private readonly ttl: RecordTtl;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    config: AppConfig,
  ) {
    const ttlMs = config.a2a.taskTtlSeconds * 1000;
    this.ttl = {
      runningMs: ttlMs,
      finishedMs: kv.kind === 'in-process' ? Math.min(ttlMs, IN_PROCESS_FINISHED_MS) : ttlMs,
    };
  }

  forAgent(agentId: string): KvTaskStore {
    return new KvTaskStore(agentId, this.kv, this.tasks, this.ttl, this.live);
  }
}
