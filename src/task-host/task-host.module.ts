import { Module, OnModuleInit } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { OrchestrationModule } from '../orchestration/orchestration.module';
import { RoutePolicies } from '../platform/http/route-policies';
import { ExecutionRepository } from './engine/execution.repository';
import { TaskEngine } from './engine/task-engine';
import { TaskEventStreams } from './engine/task-event-streams';
import { TaskEvents } from './engine/task-events';
import { TaskExecutorRegistry } from './executors/task-executor.registry';
import { TaskPushNotifier } from './push/task-push.notifier';
import { A2aTaskRecordsController } from './records/a2a-task-records.controller';
import { A2aTaskRecordsService } from './records/a2a-task-records.service';
import { taskRpcCodeFor } from './rpc/task-rpc-codes';
import { TaskRpcMethods } from './rpc/task-rpc.methods';
import { TasksRpcController } from './rpc/tasks-rpc.controller';
import { TaskExecutionService } from './task-execution.service';
import { TaskRepository } from './task.repository';
import { TaskTreeService } from './task-tree.service';

/**
 * Work that outlives a request: operator access to the A2A task records, and the apflow task
 * trees - their JSON-RPC API at POST /tasks (and POST /), the execution engine with leases,
 * event streams and push notifications.
 */
@Module({
  imports: [A2aModule, OrchestrationModule],
  controllers: [TasksRpcController, A2aTaskRecordsController],
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
  ],
})
export class TaskHostModule implements OnModuleInit {
  constructor(private readonly routes: RoutePolicies) {}

  onModuleInit(): void {
    this.routes.registerJsonRpc(/^\/tasks\/?$/, taskRpcCodeFor);
    this.routes.registerJsonRpc(/^\/$/);
  }
}
