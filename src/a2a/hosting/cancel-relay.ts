import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Principal } from '../../platform/auth/principal';
import { EventBus } from '../../platform/events/event-bus';
import { A2aUser, ownerOf } from './a2a-user';
import { callContextFor } from './call-context';
import { ExecutionBuses } from './execution-buses';

/** Where cancels of tasks running on another replica travel. */
const CANCEL_CHANNEL = 'a2a:cancel';

interface CancelRequest {
  agentId: string;
  taskId: string;
  owner: string;
}

/**
 * A cancel for a task this replica does not run goes to every replica: the one running it
 * cancels its executor (for a remote agent: tasks/cancel on the agent), while the SDK on the
 * replica that took the request records the cancellation.
 */
@Injectable()
export class CancelRelay implements OnModuleInit {
  private readonly logger = new Logger('CancelRelay');

  constructor(
    private readonly bus: EventBus,
    private readonly running: ExecutionBuses,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(CANCEL_CHANNEL, (message) => this.cancelHere(message as CancelRequest));
  }

  /** Runs before a cancel reaches the SDK: relays it unless the task runs here. */
  async relay(agentId: string, taskId: string, context: ServerCallContext): Promise<void> {
    if (this.running.isRunningHere(agentId, taskId, context)) return;
    const request: CancelRequest = { agentId, taskId, owner: ownerOf(context) };
    await this.bus
      .publish(CANCEL_CHANNEL, request)
      .catch((error: Error) => this.logger.warn(`Could not relay the cancel of task ${taskId}: ${error.message}`));
  }

  private async cancelHere({ agentId, taskId, owner }: CancelRequest): Promise<void> {
    const user = new A2aUser(new Principal('cancel-relay', 'cancel-relay', owner, ['messages']));
    await this.running.cancelHere(agentId, taskId, callContextFor(agentId, user));
  }
}
