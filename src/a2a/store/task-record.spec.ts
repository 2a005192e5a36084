import { recordText, TaskPersistenceRecord } from './task-record';

describe('recordText', () => {
  it.each<[string, unknown, unknown]>([
    ['a plain task, no context', { id: 't', history: [], artifacts: [] }, null],
    ['text that needs escapes', { id: 't"\\', note: 'a\u0000b \ud800 é \n' }, { turns: [1, 'two'], skip: undefined }],
    ['a context with nested values', { id: 't' }, { agents: { a: { at: '2026-11-27T00:00:00.000Z' } } }],
  ])('writes %s as JSON.stringify writes the record', (_name, task, context) => {
    const record: TaskPersistenceRecord = {
      taskId: 'task "1"',
      agentId: 'agent\u2028',
      owner: 'owner é',
      task,
      context,
      expiresAtUtc: '2026-11-27T06:00:00.000Z',
    };
    expect(recordText(record, JSON.stringify(task))).toBe(JSON.stringify(record));
  });

  it('writes a missing context as null, as the record has it', () => {
    const record = { taskId: 't', agentId: 'a', owner: 'o', context: undefined, expiresAtUtc: 'x' };
    expect(JSON.parse(recordText(record, '{}'))).toEqual({ ...record, task: {}, context: null });
  });
});
