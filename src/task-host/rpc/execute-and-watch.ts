import type { Principal } from '../../platform/auth/principal';
import type { TaskEvent } from '../engine/task-events';
import type { TaskEventStreams } from '../engine/task-event-streams';
import type { ExecuteRequest, ExecutionStarted, TaskExecutionService } from '../task-execution.service';

/**
 * Starts an execution and its event stream together, the stream opened before the run starts, so
 * a watcher misses none of its events however fast it runs (JSON-RPC `use_streaming`, gRPC
 * ExecuteTaskStream).
 */
export async function executeAndWatch(
  executions: TaskExecutionService,
  streams: TaskEventStreams,
  principal: Principal,
  request: ExecuteRequest,
): Promise<{ started: ExecutionStarted; events: AsyncIterable<TaskEvent> }> {
  let events: AsyncIterable<TaskEvent> | undefined;
  const started = await executions.execute(principal, {
    ...request,
    beforeStart: async (execution) => {
      events = await streams.open(execution.rootId, execution.id);
    },
  });
  return { started, events: events! };
}
