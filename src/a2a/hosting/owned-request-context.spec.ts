import { Role, SendMessageRequest, Task, TaskState } from '@a2a-js/sdk';
import { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import { ownedRequestContext } from './owned-request-context';

const request = (): SendMessageRequest => ({
  tenant: '',
  message: {
    messageId: 'm-1',
    contextId: 'c-1',
    taskId: 't-1',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: 'hello' }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: { source: 'spec' },
});

const task: Task = {
  id: 't-1',
  contextId: 'c-1',
  status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: undefined },
  artifacts: [],
  history: [],
  metadata: undefined,
};

describe('ownedRequestContext', () => {
  const call = new ServerCallContext();

  it('is what the SDK constructor makes, field for field (a field the SDK adds fails here)', () => {
    const owned = ownedRequestContext(request(), 't-1', 'c-1', call, task);
    const made = new RequestContext(request(), 't-1', 'c-1', call, task);
    expect(owned).toBeInstanceOf(RequestContext);
    expect(Object.keys(owned).sort()).toEqual(Object.keys(made).sort());
    expect(owned).toEqual(made);
    expect(owned.userMessage).toEqual(made.userMessage);
  });

  it('holds the request itself, not a copy', () => {
    const mine = request();
    const owned = ownedRequestContext(mine, 't-1', 'c-1', call);
    expect(owned.request).toBe(mine);
    expect(owned.userMessage).toBe(mine.message);
    expect(owned.task).toBeUndefined();
    expect(new RequestContext(mine, 't-1', 'c-1', call).request).not.toBe(mine);
  });

  it('refuses a request without a message, as the constructor does', () => {
    const empty = { ...request(), message: undefined };
    expect(() => ownedRequestContext(empty, 't-1', 'c-1', call)).toThrow('requires request.message');
    expect(() => new RequestContext(empty, 't-1', 'c-1', call)).toThrow('requires request.message');
  });
});
