import { Module, OnModuleInit } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AgentHost } from '../a2a/hosting/agent-host';
import { OrchestrationModule } from '../orchestration/orchestration.module';
import { AuthCoreModule } from '../platform/auth/auth-core.module';
import { ExecutionRepository } from './engine/execution.repository';
import { TaskEngine } from './engine/task-engine';
import { TaskEventStreams } from './engine/task-event-streams';
import { TaskEvents } from './engine/task-events';
import { TaskExecutorRegistry } from './executors/task-executor.registry';
import { TaskPushNotifier } from './push/task-push.notifier';
import { A2aTaskRecordsController } from './records/a2a-task-records.controller';
import { A2aTaskRecordsService } from './records/a2a-task-records.service';
import { TaskRpcMethods } from './rpc/task-rpc.methods';
import { TaskEventsGateway } from './rpc/task-events.gateway';
import { TasksRpcController } from './rpc/tasks-rpc.controller';
import { TasksGrpcController } from './rpc/tasks.grpc.controller';
import { TaskExecutionService } from './task-execution.service';
import { TaskRepository } from './task.repository';
import { TaskTreeService } from './task-tree.service';
import { WorkflowExecutor } from './workflow/workflow.executor';
import { WORKFLOW_PROFILE } from './workflow/workflow.profile';

/**
 * Work that outlives a request: operator access to the A2A task records, and the apflow task
 * trees - their JSON-RPC API at POST /tasks (and POST /), the execution engine with leases,
 * event streams and push notifications.
 */
@Module({
  imports: [A2aModule, OrchestrationModule, AuthCoreModule],
  controllers: [TasksRpcController, TasksGrpcController, A2aTaskRecordsController],
  providers: [
    TaskRepository,
    ExecutionRepository,
    TaskExecutorRegistry,
    TaskEvents,
    TaskEventStreams,
    TaskPushNotifier,
    TaskEngine,
    TaskTreeService,
    TaskExecutionService,
    TaskRpcMethods,
    A2aTaskRecordsService,
    TaskEventsGateway,
  ],
  exports: [TaskRepository],
})
export class TaskHostModule implements OnModuleInit {
  constructor(
    private readonly host: AgentHost,
    private readonly trees: TaskTreeService,
    private readonly executions: TaskExecutionService,
    private readonly streams: TaskEventStreams,
  ) {}

  onModuleInit(): void {
    this.host.host({
      profile: WORKFLOW_PROFILE,
      executor: new WorkflowExecutor(this.trees, this.executions, this.streams),
    });
  }
}
