import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { A2aTaskRepository } from './a2a-task.repository';
import { KvTaskStore } from './kv-task.store';
import { LiveTasks } from './live-tasks';

/** Makes each hosted agent's task store; they share this replica's memory of live tasks. */
@Injectable()
export class TaskStores {
  private readonly live = new LiveTasks();
  private readonly ttlMs: number;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    config: AppConfig,
  ) {
    this.ttlMs = config.a2a.taskTtlSeconds * 1000;
  }

  forAgent(agentId: string): KvTaskStore {
    return new KvTaskStore(agentId, this.kv, this.tasks, this.ttlMs, this.live);
  }
}
