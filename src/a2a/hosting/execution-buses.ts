import { AgentExecutor, DefaultExecutionEventBusManager, ServerCallContext } from '@a2a-js/sdk/server';
import { Injectable } from '@nestjs/common';

interface Running {
  buses: DefaultExecutionEventBusManager;
  executor: AgentExecutor;
}

/**
 * What runs on this replica: each agent's SDK event buses (one per running task) and its executor.
 * Kept per agent id across re-hosting, so running tasks keep their streams and cancels.
 */
@Injectable()
export class ExecutionBuses {
  private readonly agents = new Map<string, Running>();

  /** The agent's bus manager, for its request handler; `executor` is what cancels its tasks here. */
  register(agentId: string, executor: AgentExecutor): DefaultExecutionEventBusManager {
    const running = this.agents.get(agentId);
    if (running) {
      running.executor = executor;
      return running.buses;
    }
    const buses = new DefaultExecutionEventBusManager();
    this.agents.set(agentId, { buses, executor });
    return buses;
  }

  forget(agentId: string): void {
    this.agents.delete(agentId);
  }

  /** Whether this replica runs (has an open event bus for) the task, as seen by `context`'s caller. */
  isRunningHere(agentId: string, taskId: string, context: ServerCallContext): boolean {
    return this.agents.get(agentId)?.buses.getByTaskId(taskId, context) !== undefined;
  }

  /** Cancels the task's execution here, if it runs here. */
  async cancelHere(agentId: string, taskId: string, context: ServerCallContext): Promise<void> {
    const running = this.agents.get(agentId);
    const bus = running?.buses.getByTaskId(taskId, context);
    if (running && bus) await running.executor.cancelTask(taskId, bus);
  }
}
