import { ErrorCode } from '../../platform/errors/error-code';
import { agentRouteOf } from './a2a-http-lane';

describe('agentRouteOf', () => {
  it.each([
    ['/api/agents/lights/v1', 'lights', '/api/agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/lights/v1/', 'lights', '/api/agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/lights/v1?trace=1', 'lights', '/api/agents/lights', '/v1?trace=1', '/api/agents/:id/v1'],
    ['/API/Agents/lights/V1', 'lights', '/API/Agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/l%69ghts/v1', 'lights', '/api/agents/l%69ghts', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/lights/json', 'lights', '/api/agents/lights', '/json', '/api/agents/:id/json'],
    [
      '/api/agents/lights/json/v1/message:send',
      'lights',
      '/api/agents/lights',
      '/json/v1/message:send',
      '/api/agents/:id/json',
    ],
    [
      '/api/agents/lights/json/tasks/abc?historyLength=2',
      'lights',
      '/api/agents/lights',
      '/json/tasks/abc?historyLength=2',
      '/api/agents/:id/json',
    ],
  ])('%s → agent %s', (url, agentId, base, rest, pattern) => {
    expect(agentRouteOf(url)).toEqual({ agentId, base, rest, pattern });
  });

  it.each([
    '/api/agents',
    '/api/agents/lights',
    '/api/agents/lights/extended',
    '/api/agents/lights/v2',
    '/api/agents/lights/v1/extra',
    '/api/agents/lights/jsonx',
    '/api/agents/lights/.well-known/agent-card.json',
    '/api/agents//v1',
    '/a2a/lucia-orchestrator',
  ])('leaves %s to the routes behind it', (url) => {
    expect(agentRouteOf(url)).toBeUndefined();
  });

  it('refuses an id that is not valid percent-encoding', () => {
    expect(() => agentRouteOf('/api/agents/%E0%A4%A/v1')).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_REQUEST }),
    );
  });
});
