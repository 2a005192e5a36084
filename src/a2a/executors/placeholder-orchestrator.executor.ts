import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { AgentProfile, DEFAULT_AGENT_ID } from '../agent-profile';
import { agentTextMessage } from './agent-messages';

export const ORCHESTRATOR_PROFILE: AgentProfile = {
  id: DEFAULT_AGENT_ID,
  name: 'Orchestrator',
  description: "Switchboard's orchestrator: the agent that routes each request to the registered agents.",
  version: '0.1.0',
  kind: 'local',
  skills: [
    {
      id: 'route',
      name: 'Route a request',
      description: 'Sends a request to the agent best suited to answer it.',
      tags: ['routing', 'orchestration'],
      examples: ['Turn on the kitchen lights'],
    },
  ],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};

/**
 * Stands in for the orchestrator until routing exists. It answers every request honestly that
 * nothing is routed yet and where registered agents can be reached directly - never a made-up
 * answer.
 */
export class PlaceholderOrchestratorExecutor implements AgentExecutor {
  constructor(private readonly listAgentIds: () => string[]) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const others = this.listAgentIds().filter((id) => id !== DEFAULT_AGENT_ID);
    const direct = others.length
      ? `Registered agents can be reached directly at /api/agents/{id}/v1: ${others.join(', ')}.`
      : 'No agents are registered yet (POST /api/agents).';
    const text = `Routing is not configured yet: the orchestrator cannot answer requests itself. ${direct}`;
    bus.publish(AgentEvent.message(agentTextMessage(text, context.contextId)));
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Nothing runs long enough to cancel.
  }
}
