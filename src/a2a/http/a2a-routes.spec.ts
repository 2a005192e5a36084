import { ErrorCode } from '../../platform/errors/error-code';
import { agentRouteOf, routeOfRoot, SHARED_ROOT } from './a2a-routes';

describe('agentRouteOf', () => {
  it.each([
    ['/api/agents/lights/v1', 'lights', '/api/agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/lights/v1/', 'lights', '/api/agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/lights/v1?trace=1', 'lights', '/api/agents/lights', '/v1?trace=1', '/api/agents/:id/v1'],
    ['/API/Agents/lights/V1', 'lights', '/API/Agents/lights', '/v1', '/api/agents/:id/v1'],
    ['/api/agents/l%69ghts/v1', 'lights', '/api/agents/l%69ghts', '/v1', '/api/agents/:id/v1'],
  ])('%s → agent %s, JSON-RPC', (url, agentId, base, rest, pattern) => {
    expect(agentRouteOf('POST', url)).toEqual({ agentId, base, rest, pattern, jsonRpc: true });
  });

  it.each([
    ['/api/agents/lights/json', '/json'],
    ['/api/agents/lights/json/v1/message:send', '/json/v1/message:send'],
    ['/api/agents/lights/json/tasks/abc?historyLength=2', '/json/tasks/abc?historyLength=2'],
  ])('%s → HTTP+JSON %s', (url, rest) => {
    expect(agentRouteOf('GET', url)).toEqual({
      agentId: 'lights',
      base: '/api/agents/lights',
      rest,
      pattern: '/api/agents/:id/json',
      jsonRpc: false,
    });
  });

  it('routes the legacy orchestrator path, POST only', () => {
    expect(agentRouteOf('POST', '/a2a/lucia-orchestrator')).toEqual({
      agentId: 'orchestrator',
      base: '/a2a/lucia-orchestrator',
      rest: '/v1',
      pattern: '/a2a/lucia-orchestrator',
      jsonRpc: true,
    });
    expect(agentRouteOf('GET', '/a2a/lucia-orchestrator')).toBeUndefined();
  });

  it('leaves POST / to the body: task-tree calls go on, anything else is the orchestrator', () => {
    expect(agentRouteOf('POST', '/')).toBe(SHARED_ROOT);
    expect(agentRouteOf('GET', '/')).toBeUndefined();
    expect(routeOfRoot('/', { jsonrpc: '2.0', id: 1, method: 'tasks.list' })).toBeUndefined();
    expect(routeOfRoot('/', [{ method: 'tasks.get' }, { method: 'tasks.list' }])).toBeUndefined();
    for (const body of [{ method: 'message/send' }, [{ method: 'tasks.get' }, { method: 'x' }], 42, null, []]) {
      expect(routeOfRoot('/', body)).toMatchObject({ agentId: 'orchestrator', rest: '/v1', jsonRpc: true });
    }
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
    '/a2a/lucia-orchestrator/extra',
    '/tasks',
  ])('leaves %s to the routes behind it', (url) => {
    expect(agentRouteOf('POST', url)).toBeUndefined();
  });

  it('refuses an id that is not valid percent-encoding, in the shape of the route', () => {
    expect(agentRouteOf('POST', '/api/agents/%E0%A4%A/v1')).toMatchObject({
      jsonRpc: true,
      problem: expect.objectContaining({ code: ErrorCode.INVALID_REQUEST }),
    });
  });
});
