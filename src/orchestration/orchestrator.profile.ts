import { AgentProfile, DEFAULT_AGENT_ID } from '../a2a/agent-profile';

export const ORCHESTRATOR_PROFILE: AgentProfile = {
  id: DEFAULT_AGENT_ID,
  name: 'Orchestrator',
  description:
    "Switchboard's orchestrator: routes each request to the registered agents best suited to it, " +
    'runs them in parallel and answers as one.',
  version: '1.0.0',
  kind: 'local',
  skills: [
    {
      id: 'route',
      name: 'Route a request',
      description: 'Sends a request to the agents best suited to answer it and combines their answers.',
      tags: ['routing', 'orchestration'],
      examples: ['Turn on the kitchen lights and play jazz music'],
    },
  ],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};
