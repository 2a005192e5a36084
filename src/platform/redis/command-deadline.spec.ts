import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { CommandDeadline } from './command-deadline';

/** A command the test answers (or not) by hand. */
function manual<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CommandDeadline', () => {
  let clock: number;
  let deadline: CommandDeadline;

  beforeEach(() => {
    clock = 0;
    deadline = new CommandDeadline(1_000, () => clock);
  });

  afterEach(() => deadline.close());

  it('passes answers and errors through unchanged', async () => {
    await expect(deadline.run(async () => 'PONG')).resolves.toBe('PONG');
    const failure = new Error('WRONGTYPE');
    await expect(deadline.run(async () => Promise.reject(failure))).rejects.toBe(failure);
    const thrown = new TypeError('bad arguments');
    await expect(
      deadline.run(() => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(deadline.stalled).toBe(false);
  });

  it('fails a command unanswered past the deadline, and only that one', async () => {
    const slow = manual<string>();
    const first = deadline.run(() => slow.promise);
    clock = 600;
    const later = manual<string>();
    const second = deadline.run(() => later.promise);
    clock = 1_000;
    deadline.sweep();
    await expect(first).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE, retryAfterSeconds: 1 });
    await expect(first).rejects.toThrow('Redis did not answer within 1000 ms');
    later.resolve('second answer');
    await expect(second).resolves.toBe('second answer');
  });

  it('refuses new commands at once while an overdue one is unanswered, then recovers', async () => {
    const stuck = manual<string>();
    const first = deadline.run(() => stuck.promise);
    clock = 1_500;
    deadline.sweep();
    await expect(first).rejects.toBeInstanceOf(DomainError);
    expect(deadline.stalled).toBe(true);

    const sent = jest.fn(async () => 'never sent');
    await expect(deadline.run(sent)).rejects.toThrow(/Redis is not answering/);
    expect(sent).not.toHaveBeenCalled();

    // The server answers at last (or node-redis fails the command when the socket drops).
    stuck.resolve('late');
    await new Promise((resolve) => setImmediate(resolve));
    expect(deadline.stalled).toBe(false);
    await expect(deadline.run(async () => 'PONG')).resolves.toBe('PONG');
  });

  it('leaves commands within the deadline alone', async () => {
    const pending = manual<string>();
    const result = deadline.run(() => pending.promise);
    clock = 999;
    deadline.sweep();
    expect(deadline.stalled).toBe(false);
    pending.resolve('in time');
    await expect(result).resolves.toBe('in time');
  });
});
