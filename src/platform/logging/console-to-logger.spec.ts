import { A2AError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { LoggerService } from '@nestjs/common';
import { routeConsoleToLogger } from './console-to-logger';

describe('routeConsoleToLogger', () => {
  const saved = { ...console };
  const lines: { level: string; text: string }[] = [];
  const at = (level: string) => (text: string) => void lines.push({ level, text });
  const logger: LoggerService = { log: at('log'), warn: at('warn'), error: at('error'), debug: at('debug') };

  beforeEach(() => {
    lines.length = 0;
    routeConsoleToLogger(logger);
  });
  afterEach(() => Object.assign(console, saved));

  it("logs the A2A SDK's report of a caller's mistake as one debug line, without its stack", () => {
    console.error('Pre-stream error for request 7:', new TaskNotFoundError('Task abc not found'));
    expect(lines).toEqual([
      { level: 'debug', text: 'Pre-stream error for request 7: TaskNotFoundError: Task abc not found' },
    ]);
  });

  it("keeps what is the server's fault an error, with its stack", () => {
    console.error('Unhandled error in JSON-RPC POST handler:', new A2AError('store down'));
    console.error('Error during SSE streaming (request 8):', new Error('socket gone'));
    expect(lines.map((l) => l.level)).toEqual(['error', 'error']);
    expect(lines[0].text).toMatch(/^Unhandled error in JSON-RPC POST handler: .*store down[\s\S]*\n\s+at /);
    expect(lines[1].text).toContain('socket gone');
  });

  it('routes the other console methods to their levels', () => {
    console.log('a %d', 1);
    console.info('b');
    console.warn('c');
    console.debug('d');
    expect(lines).toEqual([
      { level: 'log', text: 'a 1' },
      { level: 'log', text: 'b' },
      { level: 'warn', text: 'c' },
      { level: 'debug', text: 'd' },
    ]);
  });
});
