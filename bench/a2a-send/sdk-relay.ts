import { ClientFactory } from '@a2a-js/sdk/client';
import {
  AgentEvent,
  AgentExecutor,
  DefaultRequestHandler,
  ExecutionEventBus,
  RequestContext,
} from '@a2a-js/sdk/server';
import express from 'express';
import { echoCard, mountJsonRpc } from './echo-agent';
import { listen, Listening } from './listener';
import { RecentTaskStore } from './recent-task-store';
import { Variant, VARIANT_INFO } from './variants';

/**
 * The least a proxy built from the official SDK does: the SDK's own server (DefaultRequestHandler,
 * jsonRpcHandler with v0.3 compatibility, no authentication, tasks in memory) whose executor
 * sends each message on with the SDK's client (as its ClientFactory makes it from the remote's
 * card) and publishes the answer under its own ids - and nothing else: no records, limits or
 * links between ids. The hub's proxy is built the same way, plus all that; against this target it
 * shows what the hub adds to the SDK's own cost.
 */
export type SdkRelay = Listening;

export async function startSdkRelay(
  upstream: string,
  variants: readonly Variant[],
  host = '127.0.0.1',
): Promise<SdkRelay> {
  const app = express();
  app.disable('x-powered-by');
  const listening = await listen(app, host);
  const origin = listening.origin;
  for (const variant of variants) {
    const base = VARIANT_INFO[variant].basePath;
    const client = await new ClientFactory().createFromUrl(`${upstream}${base}/.well-known/agent-card.json`, '');
    const executor: AgentExecutor = {
      execute: async (context: RequestContext, bus: ExecutionEventBus) => {
        const answer = await client.sendMessage({
          tenant: '',
          message: { ...context.userMessage, contextId: '', taskId: '' },
          configuration: undefined,
          metadata: undefined,
        });
        bus.publish(
          'messageId' in answer
            ? AgentEvent.message({ ...answer, contextId: context.contextId, taskId: '' })
            : AgentEvent.task({ ...answer, id: context.taskId, contextId: context.contextId }),
        );
        bus.finished();
      },
      cancelTask: () => Promise.resolve(),
    };
    const handler = new DefaultRequestHandler(echoCard(`${origin}${base}`, variant), new RecentTaskStore(), executor);
    mountJsonRpc(app, `${base}/v1`, handler);
  }
  return listening;
}
