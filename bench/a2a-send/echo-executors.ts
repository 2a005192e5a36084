import type { AgentExecutor } from '@a2a-js/sdk/server';
import { EchoExecutor, StreamingTaskEchoExecutor, TaskEchoExecutor } from '../../test/support/echo-agents';
import type { Variant } from './variants';

export { ECHO_PREFIX, EchoExecutor } from '../../test/support/echo-agents';

/**
 * The agents every target serves, one per variant. Built only from SDK calls, as the "Music" and
 * "Notes" agents in test/support/remote-agents.ts are, so the reference server, the remote echo
 * server and the hub run the same code, and whatever differs between targets is the server's.
 */
export function echoExecutor(variant: Variant): AgentExecutor {
  switch (variant) {
    case 'message':
      return new EchoExecutor();
    case 'task':
      return new TaskEchoExecutor();
    case 'task-stream':
      return new StreamingTaskEchoExecutor();
  }
}
