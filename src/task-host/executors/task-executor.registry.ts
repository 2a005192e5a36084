import { Injectable } from '@nestjs/common';
import { AgentHost } from '../../a2a/hosting/agent-host';
import { AppConfig } from '../../platform/config/app-config';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { A2aSendExecutor } from './a2a-send.executor';
import { AggregateExecutor, NoopExecutor, SleepExecutor } from './basic.executors';
import { HttpRequestExecutor } from './http-request.executor';
import type { TaskExecutor } from './task-executor';

/** The executors tasks can name in `schemas.method`. A task without a method runs `noop`. */
@Injectable()
export class TaskExecutorRegistry {
  static readonly DEFAULT = 'noop';
  private readonly executors = new Map<string, TaskExecutor>();

  constructor(host: AgentHost, http: OutboundHttp, config: AppConfig) {
    for (const executor of [
      new NoopExecutor(),
      new SleepExecutor(),
      new AggregateExecutor(),
      new HttpRequestExecutor(http),
      new A2aSendExecutor(host, config.orchestration.agentTimeoutMs),
    ]) {
      this.executors.set(executor.id, executor);
    }
  }

  has(id: string): boolean {
    return this.executors.has(id);
  }

  get(id: string | undefined): TaskExecutor | undefined {
    return this.executors.get(id ?? TaskExecutorRegistry.DEFAULT);
  }

  list(): TaskExecutor[] {
    return [...this.executors.values()];
  }
}

/** The executor id a task names, if it names one. */
export function methodOf(schemas: Record<string, unknown> | undefined): string | undefined {
  const method = schemas?.method;
  return typeof method === 'string' && method !== '' ? method : undefined;
}
