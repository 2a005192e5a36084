import { count, exactlyOne, list, object, oneOf, required, struct, text } from './request-shapes';
import { paramsProblem } from './json-rpc-params';
import { restBodyProblem } from './rest-body';

describe('request shapes', () => {
  const shape = object({
    taskId: required(text),
    historyLength: count,
    parts: list(object({ text, url: text }, exactlyOne('text', 'url'))),
    metadata: struct,
    role: oneOf('user', 'agent'),
  });

  it('names the first wrong field, items by index', () => {
    expect(shape.check({ taskId: 't' }, '', false)).toBeUndefined();
    expect(shape.check({}, '', false)).toBe('taskId must be a string');
    expect(shape.check({ taskId: 't', parts: [{ text: 'a' }, null] }, '', false)).toBe('parts[1] must be an object');
    expect(shape.check({ taskId: 't', parts: [{}] }, '', false)).toBe('parts[0] must have text or url');
    expect(shape.check({ taskId: 't', parts: [{ text: 'a', url: 'b' }] }, '', false)).toBe(
      'parts[0] must have only one of text or url',
    );
    expect(shape.check({ taskId: 't', metadata: [] }, '', false)).toBe('metadata must be an object');
    expect(shape.check({ taskId: 't', role: 'robot' }, '', false)).toBe('role must be one of "user", "agent"');
  });

  it('treats null as absent, as ProtoJSON and the v0.3 SDK do', () => {
    expect(shape.check({ taskId: 't', historyLength: null, metadata: null }, '', false)).toBeUndefined();
    expect(shape.check({ taskId: null }, '', false)).toBe('taskId must be a string');
  });

  it('with ProtoJSON, reads a member under its proto field name when the JSON name is absent', () => {
    expect(shape.check({ task_id: 't', history_length: 2 }, '', true)).toBeUndefined();
    expect(shape.check({ task_id: 't' }, '', false)).toBe('taskId must be a string');
    expect(shape.check({ task_id: 't', history_length: -1 }, '', true)).toBe(
      'history_length must be a whole number, 0 or more',
    );
    expect(shape.check({ taskId: null, task_id: 't' }, '', true)).toBeUndefined();
    // ProtoJSON writes integers as strings too; plain JSON does not.
    expect(shape.check({ taskId: 't', historyLength: '3' }, '', true)).toBeUndefined();
    expect(shape.check({ taskId: 't', historyLength: '3' }, '', false)).toBe(
      'historyLength must be a whole number, 0 or more',
    );
  });
});

describe('paramsProblem', () => {
  it('reads v1.0 methods in ProtoJSON and v0.3 methods in plain JSON', () => {
    expect(paramsProblem('GetTaskPushNotificationConfig', { task_id: 't', id: 'c' })).toBeUndefined();
    expect(
      paramsProblem('tasks/pushNotificationConfig/get', { id: 't', push_notification_config_id: 5 }),
    ).toBeUndefined();
    expect(
      paramsProblem('tasks/pushNotificationConfig/set', { task_id: 't', pushNotificationConfig: { url: 'u' } }),
    ).toBe('taskId must be a non-empty string');
    expect(
      paramsProblem('message/send', {
        message: { kind: 'message', role: 'user', messageId: 'm', parts: [{ kind: 'constructor' }] },
      }),
    ).toBe('message.parts[0].kind must be one of "text", "file", "data"');
  });

  it('leaves methods it does not know to the SDK', () => {
    expect(paramsProblem('agent/getAuthenticatedExtendedCard', 5)).toBeUndefined();
    expect(paramsProblem('constructor', {})).toBeUndefined();
  });
});

describe('restBodyProblem', () => {
  const message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] };

  it('refuses a body that is not an object on any route; null is no body', () => {
    expect(restBodyProblem('POST', '/t/tasks/x:cancel', '1.0', 42)).toBe('the request body must be a JSON object');
    expect(restBodyProblem('GET', '/v1/tasks/x', '0.3', [])).toBe('the request body must be a JSON object');
    expect(restBodyProblem('POST', '/v1/tasks/x:cancel', '0.3', null)).toBeUndefined();
  });

  it('checks sends and push configs in the shape of the router that serves them', () => {
    expect(restBodyProblem('POST', '/message:send', '1.0', { message })).toBeUndefined();
    expect(
      restBodyProblem('POST', '/tenant/message:stream?x=1', '1.0', { message: { ...message, parts: [null] } }),
    ).toBe('message.parts[0] must be an object');
    // v0.3 requests to /v1/... reach the v0.3 router (content, not parts); v1.0 ones the v1.0 router (tenant "v1").
    expect(restBodyProblem('POST', '/v1/message:send', '0.3', { message })).toBe('message.content must be an array');
    expect(restBodyProblem('POST', '/v1/message:send', '1.0', { message })).toBeUndefined();
    expect(restBodyProblem('POST', '/v1/tasks/x/pushNotificationConfigs', '0.3', { name: 'tasks/x' })).toBe(
      'pushNotificationConfig must be an object',
    );
    expect(restBodyProblem('POST', '/tasks/x/pushNotificationConfigs', '1.0', { url: 7 })).toBe(
      'url must be a non-empty string',
    );
  });
});
