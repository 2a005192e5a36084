import type { AppConfig } from '../../platform/config/app-config';
import type { AgentProfile } from '../agent-profile';
import type { HostedAgent } from '../hosting/agent-host';
import { AgentCardFactory } from './agent-card.factory';
import { AgentCardService } from './agent-card.service';
import { HubEndpointsResolver } from './hub-endpoints';

const PROFILE: AgentProfile = {
  id: 'lights',
  name: 'Lights',
  description: 'Turns lights on and off',
  version: '1.0.0',
  kind: 'remote',
  skills: [{ id: 'on', name: 'On', description: 'Turn a light on', tags: ['light'], examples: ['porch light on'] }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};
const HOME = { httpBase: 'http://hub.local:8080', grpcAddress: 'hub.local:50051' };

function service() {
  const config = { publicEndpoints: {}, http: { port: 8080 }, grpc: { port: 50051 } } as unknown as AppConfig;
  return new AgentCardService(new AgentCardFactory(), new HubEndpointsResolver(config));
}
const hosted = (profile: AgentProfile) => ({ profile, id: profile.id }) as HostedAgent;

describe('AgentCardService.v03', () => {
  it('builds a card once per profile and endpoints, frozen all the way down so no caller can change the shared copy', () => {
    const cards = service();
    const card = cards.v03(hosted(PROFILE), HOME);
    expect(card.url).toBe('http://hub.local:8080/api/agents/lights/v1');
    expect(cards.v03(hosted(PROFILE), { ...HOME })).toBe(card);
    expect(Object.isFrozen(card)).toBe(true);
    expect(Object.isFrozen(card.skills[0].tags)).toBe(true);
    expect(() => card.skills[0].tags.push('x')).toThrow(/not extensible/);
    expect(Object.isFrozen(PROFILE.skills[0].tags)).toBe(false);
  });

  it('builds a new card when the profile is replaced or the endpoints differ', () => {
    const cards = service();
    const card = cards.v03(hosted(PROFILE), HOME);
    const renamed = cards.v03(hosted({ ...PROFILE, name: 'Lamps' }), HOME);
    expect(renamed.name).toBe('Lamps');
    const elsewhere = cards.v03(hosted(PROFILE), { ...HOME, httpBase: 'http://10.0.0.2:8080' });
    expect(elsewhere.url).toBe('http://10.0.0.2:8080/api/agents/lights/v1');
    expect(cards.v03(hosted(PROFILE), { ...HOME, grpcAddress: 'other:1' })).not.toBe(card);
  });
});
