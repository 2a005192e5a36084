import { tolerateFieldClients } from './field-client-tolerance';

const homeAssistant = () => ({
  jsonrpc: '2.0',
  method: 'message/send',
  id: 1,
  params: {
    message: {
      kind: 'message',
      role: 'user',
      parts: [{ kind: 'text', text: 'turn on the lights', metadata: null }],
      messageId: null,
      contextId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      taskId: null,
      metadata: null,
      referenceTaskIds: [],
      extensions: [],
    },
  },
});

describe('tolerateFieldClients', () => {
  it("rewrites Home Assistant's request into standard A2A", () => {
    const request = homeAssistant();
    tolerateFieldClients(request);
    const message = request.params.message as Record<string, unknown>;
    expect(message.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(message).not.toHaveProperty('taskId');
    expect(message).not.toHaveProperty('metadata');
    expect(message.contextId).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(message.parts).toEqual([{ kind: 'text', text: 'turn on the lights' }]);
    expect(request.id).toBe(1);
  });

  it('infers the kind of parts sent without one', () => {
    const request = homeAssistant();
    request.params.message.parts = [{ text: 'hi' }, { data: { a: 1 } }, { file: { uri: 'https://x/y.png' } }] as never;
    tolerateFieldClients(request);
    expect((request.params.message.parts as { kind: string }[]).map((p) => p.kind)).toEqual(['text', 'data', 'file']);
  });

  it('treats role "assistant" as the agent role', () => {
    const request = homeAssistant();
    request.params.message.role = 'assistant';
    tolerateFieldClients(request);
    expect(request.params.message.role).toBe('agent');
  });

  it('keeps a messageId the client chose and leaves other methods alone', () => {
    const request = homeAssistant();
    request.params.message.messageId = 'mine' as never;
    tolerateFieldClients(request);
    expect(request.params.message.messageId).toBe('mine');

    const get = { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: 't1', metadata: null } };
    tolerateFieldClients(get);
    expect(get.params.metadata).toBeNull();
  });

  it('leaves v1.0 requests as sent: no part kinds, no messageId (a v1.0 client must send one)', () => {
    const request = {
      jsonrpc: '2.0',
      id: 3,
      method: 'SendMessage',
      params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }], messageId: null } },
    };
    const before = JSON.stringify(request);
    tolerateFieldClients(request);
    expect(JSON.stringify(request)).toBe(before);
  });

  it('ignores shapes it does not understand', () => {
    for (const request of [{ method: 'message/send' }, { method: 'message/send', params: [] }, { method: 7 }]) {
      const before = JSON.stringify(request);
      tolerateFieldClients(request);
      expect(JSON.stringify(request)).toBe(before);
    }
  });
});
