import type { AgentHost } from '../a2a/hosting/agent-host';
import { AppConfig } from '../platform/config/app-config';
import { validateEnvironment } from '../platform/config/environment';
import { empty } from './context/orchestration-context.store';
import type { LearnedRoutes } from './learning/learned-routes';
import type { AgentRouter } from './router/agent-router';
import { agentCard as card } from './router/agent-card.fixture';
import type { Routing } from './router/routing';
import { TurnPlanner } from './turn-planner';

const AGENTS = [card('weather', 'Weather', 'Forecasts'), card('calendar', 'Family Calendar', 'The shared calendar')];

/** A planner whose router answers `routing` to everything. */
function plannerRouting(routing: Routing): TurnPlanner {
  const router = { usesLlm: false, route: () => Promise.resolve({ routing, router: 'default' }) };
  const learned = { agentFor: () => undefined, learn: () => Promise.resolve() };
  const settings = new AppConfig(validateEnvironment({})).orchestration;
  return new TurnPlanner(
    { revision: 1 } as unknown as AgentHost,
    router as unknown as AgentRouter,
    learned as unknown as LearnedRoutes,
    settings,
  );
}

describe('TurnPlanner in a conversation, when routing is unsure', () => {
  const context = { ...empty('c1'), previousAgentId: 'weather' };
  const unsure: Routing = { agentId: 'calendar', reasoning: 'unsure', confidence: 0.3, candidates: ['calendar'] };

  it("leaves what leans on the conversation to the conversation's agent", async () => {
    const plan = await plannerRouting(unsure).plan('me', 'and sunday?', 'and sunday?', context, AGENTS);
    expect(plan).toMatchObject({ kind: 'run', calls: [{ agentId: 'weather', text: 'and sunday?' }] });
  });

  it('asks about a request of its own instead of leaving it to that agent', async () => {
    const text = 'pencil in a barbecue with the neighbours on Saturday';
    const plan = await plannerRouting({ ...unsure, standsAlone: true }).plan('me', text, text, context, AGENTS);
    expect(plan).toMatchObject({ kind: 'ask', candidates: ['calendar'] });
  });
});
