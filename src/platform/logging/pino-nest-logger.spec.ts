import { Writable } from 'node:stream';
import { pino } from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

function capture(level = 'trace') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: new PinoNestLogger(pino({ level, base: undefined }, stream)), lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('PinoNestLogger', () => {
  it("writes Nest's calls as JSON lines with their context", async () => {
    const { logger, lines } = capture();
    logger.log('Redis connected', 'Redis');
    logger.warn('slow answer from %s', 'lights', 'AgentRunner');
    logger.verbose('details');
    await flush();
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'Redis', msg: 'Redis connected' }),
      expect.objectContaining({ level: 40, context: 'AgentRunner', msg: 'slow answer from lights' }),
      expect.objectContaining({ level: 10, msg: 'details' }),
    ]);
  });

  it("keeps errors with their stack, also as Nest's exception handlers pass them", async () => {
    const { logger, lines } = capture();
    const failure = new Error('boom');
    logger.error(failure, 'Errors');
    logger.error('Unhandled error: boom', failure.stack, 'ExceptionHandler');
    logger.log({ agent: 'lights', calls: 2 }, 'Stats');
    await flush();
    expect(lines[0]).toMatchObject({ level: 50, context: 'Errors', msg: 'boom', err: { message: 'boom' } });
    expect(lines[1]).toMatchObject({
      level: 50,
      context: 'ExceptionHandler',
      msg: 'Unhandled error: boom',
      err: { stack: failure.stack },
    });
    expect(lines[2]).toMatchObject({ level: 30, context: 'Stats', agent: 'lights', calls: 2 });
  });

  it('writes nothing below its level', async () => {
    const { logger, lines } = capture('warn');
    logger.log('not this');
    logger.debug('nor this');
    logger.error('but this');
    await flush();
    expect(lines.map((line) => line.msg)).toEqual(['but this']);
  });
});
