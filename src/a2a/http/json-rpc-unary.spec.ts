import type { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  InMemoryTaskStore,
  ServerCallContext,
  ServerCallContextBuilder,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express, { RequestHandler } from 'express';
import request from 'supertest';
import { TaskEchoExecutor } from '../../../test/support/echo-agents';
import { unaryJsonRpcHandler, UnaryJsonRpcOptions } from './json-rpc-unary';

const card: AgentCard = {
  name: 'Echo',
  description: 'Says back what it is told.',
  provider: undefined,
  supportedInterfaces: [
    { url: 'http://echo.test/v1', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: 'http://echo.test/v1', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
  ],
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
  signatures: [],
};

type Options = UnaryJsonRpcOptions & { legacyCompat: { enabled: boolean } };

function app(user: UserBuilder, handlers: (options: Options) => RequestHandler[]) {
  const contextBuilder: ServerCallContextBuilder = (o) =>
    new ServerCallContext({ user: o.user, requestedVersion: o.requestedVersion });
  const options: Options = {
    requestHandler: new DefaultRequestHandler(card, new InMemoryTaskStore(), new TaskEchoExecutor()),
    userBuilder: user,
    contextBuilder,
    legacyCompat: { enabled: true },
  };
  const served = express();
  served.use(express.json({ type: ['application/json', 'application/*+json'] }));
  served.use('/v1', ...handlers(options));
  return served;
}

const anyone: UserBuilder = async () => ({ isAuthenticated: true, userName: 'tester' });
/** The SDK's own express handler, and ours in front of a stand-in that shows what it passes on. */
const sdk = app(anyone, (options) => [jsonRpcHandler(options)]);
const ours = app(anyone, (options) => [
  unaryJsonRpcHandler(options),
  (_req, res) => void res.status(299).json({ passedOn: true }),
]);

const message = (id: string) => ({
  kind: 'message',
  role: 'user',
  messageId: id,
  parts: [{ kind: 'text', text: 'hi' }],
});
const v1Message = (id: string) => ({ role: 'ROLE_USER', messageId: id, parts: [{ text: 'hi' }] });

describe('unaryJsonRpcHandler', () => {
  it.each([
    ['v0.3 message/send', undefined, { method: 'message/send', params: { message: message('m1') } }, '"kind":"task"'],
    [
      'v1.0 SendMessage',
      '1.0',
      { method: 'SendMessage', params: { message: v1Message('m2') } },
      'TASK_STATE_COMPLETED',
    ],
    ['v0.3 tasks/get of no task', undefined, { method: 'tasks/get', params: { id: 'nope' } }, '-32001'],
    ['v1.0 GetTask of no task', '1.0', { method: 'GetTask', params: { id: 'nope' } }, 'TASK_NOT_FOUND'],
    ['v0.3 params the SDK refuses', undefined, { method: 'message/send', params: {} }, '-32602'],
  ])('answers %s as the SDK does', async (_name, version, call, shows) => {
    const send = (target: express.Express) => {
      const req = request(target).post('/v1').set('content-type', 'application/json');
      return (version ? req.set('A2A-Version', version) : req).send({ jsonrpc: '2.0', id: 0, ...call });
    };
    const [theirs, mine] = [await send(sdk), await send(ours)];
    const comparable = (body: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify(body)
          .replace(/"[0-9a-f-]{36}"/g, '"<uuid>"')
          .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"<time>"'),
      );
    expect(JSON.stringify(mine.body)).toContain(shows);
    expect(mine.status).toBe(theirs.status);
    expect(mine.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(comparable(mine.body)).toEqual(comparable(theirs.body));
  });

  it('keeps the id 0 a caller sent, where the SDK answers errors raised outside its transport handler with null', async () => {
    const failing = app(
      async () => {
        throw new Error('no caller');
      },
      (options) => [unaryJsonRpcHandler(options)],
    );
    const res = await request(failing)
      .post('/v1')
      .set('content-type', 'application/json')
      .send({ jsonrpc: '2.0', id: 0, method: 'message/send', params: { message: message('m3') } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 0, error: { code: -32603 } });
  });

  it.each([
    ['a streaming method', 'application/json', { method: 'message/stream', params: { message: message('m4') } }],
    ['a v1.0 stream', 'application/json', { method: 'SubscribeToTask', params: { id: 'x' } }],
    ['a content type the SDK refuses', 'application/a2a+json', { method: 'tasks/get', params: { id: 'x' } }],
    ['a body without a method', 'application/json', { params: {} }],
  ])('passes %s on to the SDK', async (_name, contentType, call) => {
    const res = await request(ours)
      .post('/v1')
      .set('content-type', contentType)
      .send({ jsonrpc: '2.0', id: 1, ...call });
    expect(res.status).toBe(299);
  });

  it('passes on any path but the endpoint, and any method but POST', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } };
    expect((await request(ours).post('/v1/other').send(body)).status).toBe(299);
    expect((await request(ours).get('/v1')).status).toBe(299);
  });
});
