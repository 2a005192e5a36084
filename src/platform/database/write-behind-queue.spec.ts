import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { isDataError, WriteBehindQueue } from './write-behind-queue';

interface Row {
  id: string;
  value: number;
}

/** A fake table: what each statement wrote, and a switch to make statements fail. */
function table(fail?: (batch: Row[]) => Error | undefined) {
  const statements: Row[][] = [];
  return {
    statements,
    write: async (batch: Row[]) => {
      await new Promise((resolve) => setImmediate(resolve));
      const error = fail?.(batch);
      if (error) throw error;
      statements.push(batch.map((row) => ({ ...row })));
    },
  };
}

const dataError = () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
const connectionError = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('WriteBehindQueue', () => {
  it('writes what was added in one statement, later, and flushed() waits for it', async () => {
    const t = table();
    const queue = new WriteBehindQueue<Row>({ name: 'test', write: t.write, delayMs: 20 });
    await queue.add({ id: 'a', value: 1 });
    await queue.add({ id: 'b', value: 2 });
    expect(t.statements).toEqual([]);
    expect(queue.depth).toBe(2);
    await queue.flushed();
    expect(t.statements).toEqual([
      [
        { id: 'a', value: 1 },
        { id: 'b', value: 2 },
      ],
    ]);
    expect(queue.depth).toBe(0);
  });

  it('coalesces items with the same key into one row, in first-added order', async () => {
    const t = table();
    const queue = new WriteBehindQueue<Row>({
      name: 'test',
      write: t.write,
      key: (row) => row.id,
      merge: (pending, later) => ({ id: later.id, value: pending.value + later.value }),
    });
    await queue.add({ id: 'a', value: 1 });
    await queue.add({ id: 'b', value: 10 });
    await queue.add({ id: 'a', value: 2 });
    await queue.flushed();
    expect(t.statements).toEqual([
      [
        { id: 'a', value: 3 },
        { id: 'b', value: 10 },
      ],
    ]);
  });

  it('keeps one batch in flight; what arrives meanwhile goes in the next, at most maxBatch each', async () => {
    const t = table();
    const queue = new WriteBehindQueue<Row>({ name: 'test', write: t.write, delayMs: 0, maxBatch: 3 });
    for (let i = 0; i < 7; i++) await queue.add({ id: `r${i}`, value: i });
    await queue.flushed();
    expect(t.statements.map((s) => s.length)).toEqual([3, 3, 1]);
    expect(t.statements.flat().map((r) => r.value)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('makes what arrives while a batch is written wait out the delay, to go with what follows it', async () => {
    const statements: string[][] = [];
    let inFlight: (() => void) | undefined;
    const queue = new WriteBehindQueue<Row>({
      name: 'test',
      delayMs: 30,
      write: (batch) => {
        statements.push(batch.map((row) => row.id));
        return new Promise<void>((resolve) => (inFlight = resolve));
      },
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await queue.add({ id: 'a', value: 1 });
    await sleep(50);
    expect(statements).toEqual([['a']]);
    await queue.add({ id: 'b', value: 2 });
    inFlight!();
    await sleep(5);
    // Not written the moment the batch before it was: b waits for company.
    expect(statements).toEqual([['a']]);
    await queue.add({ id: 'c', value: 3 });
    await sleep(50);
    expect(statements).toEqual([['a'], ['b', 'c']]);
    expect(queue.depth).toBe(2);
    // Someone waiting for it makes the next batch go at once.
    await queue.add({ id: 'd', value: 4 });
    const flushed = queue.flushed();
    inFlight!();
    await sleep(5);
    expect(statements).toEqual([['a'], ['b', 'c'], ['d']]);
    inFlight!();
    await flushed;
    expect(queue.depth).toBe(0);
  });

  it('retries a batch the database did not take, losing nothing', async () => {
    let failures = 2;
    const t = table(() => (failures-- > 0 ? connectionError() : undefined));
    const observed = { written: 0, failed: 0, dropped: 0 };
    const queue = new WriteBehindQueue<Row>(
      { name: 'test', write: t.write },
      {
        written: (_q, n) => (observed.written += n),
        failed: () => observed.failed++,
        dropped: (_q, n) => (observed.dropped += n),
      },
    );
    await queue.add({ id: 'a', value: 1 });
    await queue.flushed();
    expect(t.statements).toEqual([[{ id: 'a', value: 1 }]]);
    expect(observed).toEqual({ written: 1, failed: 2, dropped: 0 });
  });

  it('drops only the rows the database refuses for their data, and writes the others', async () => {
    const t = table((batch) => (batch.some((row) => row.id === 'bad') ? dataError() : undefined));
    let dropped = 0;
    const queue = new WriteBehindQueue<Row>(
      { name: 'test', write: t.write },
      { written: () => undefined, failed: () => undefined, dropped: (_q, n) => (dropped += n) },
    );
    await queue.add({ id: 'a', value: 1 });
    await queue.add({ id: 'bad', value: 2 });
    await queue.add({ id: 'c', value: 3 });
    await queue.flushed();
    expect(t.statements).toEqual([[{ id: 'a', value: 1 }], [{ id: 'c', value: 3 }]]);
    expect(dropped).toBe(1);
  });

  it('makes callers wait when full, and refuses them when the database stays away', async () => {
    let down = true;
    const t = table(() => (down ? connectionError() : undefined));
    const queue = new WriteBehindQueue<Row>({
      name: 'test',
      write: t.write,
      capacity: 2,
      addTimeoutMs: 100,
    });
    await queue.add({ id: 'a', value: 1 });
    await queue.add({ id: 'b', value: 2 });
    const refused = await queue.add({ id: 'c', value: 3 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);

    const waiting = queue.add({ id: 'd', value: 4 });
    down = false;
    await waiting;
    await queue.flushed();
    expect(t.statements.flat().map((row) => row.id)).toEqual(['a', 'b', 'd']);
  });

  it('readable() waits for what was queued, and refuses a reader when the database stays away', async () => {
    const working = table();
    const prompt = new WriteBehindQueue<Row>({ name: 'test', write: working.write, delayMs: 60_000 });
    await expect(prompt.readable()).resolves.toBeUndefined();
    // With nothing queued, a read arms no timer (it used to arm one per read).
    const timeout = jest.spyOn(global, 'setTimeout');
    await prompt.readable();
    expect(timeout).not.toHaveBeenCalled();
    timeout.mockRestore();
    await prompt.add({ id: 'a', value: 1 });
    await prompt.readable();
    expect(working.statements).toEqual([[{ id: 'a', value: 1 }]]);

    let down = true;
    const t = table(() => (down ? connectionError() : undefined));
    const queue = new WriteBehindQueue<Row>({ name: 'test', write: t.write, delayMs: 60_000, addTimeoutMs: 100 });
    await queue.add({ id: 'b', value: 2 });
    const started = Date.now();
    const refused = await queue.readable().catch((error: unknown) => error);
    expect((refused as DomainError).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(Date.now() - started).toBeLessThan(1_000);
    down = false;
    await queue.flushed();
    expect(t.statements).toEqual([[{ id: 'b', value: 2 }]]);
  });

  it('close() writes what is left, then refuses new items', async () => {
    const t = table();
    const queue = new WriteBehindQueue<Row>({ name: 'test', write: t.write, delayMs: 60_000 });
    await queue.add({ id: 'a', value: 1 });
    await queue.close(1_000);
    expect(t.statements).toEqual([[{ id: 'a', value: 1 }]]);
    await expect(queue.add({ id: 'b', value: 2 })).rejects.toThrow(/closed/);
  });

  it('close() gives up at its deadline when the database is gone', async () => {
    const t = table(() => connectionError());
    const queue = new WriteBehindQueue<Row>({ name: 'test', write: t.write });
    await queue.add({ id: 'a', value: 1 });
    const started = Date.now();
    await queue.close(150);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(t.statements).toEqual([]);
  });

  it('tells data errors (SQLSTATE classes 22 and 23) from the rest', () => {
    expect(isDataError(dataError())).toBe(true);
    expect(isDataError({ code: '23505' })).toBe(true);
    expect(isDataError(connectionError())).toBe(false);
    expect(isDataError({ code: '57P01' })).toBe(false);
    expect(isDataError(undefined)).toBe(false);
  });
});
