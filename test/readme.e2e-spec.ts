import { status as GrpcStatus } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/paths';
import { ENVIRONMENT_VARIABLES, EnvironmentVariables } from '../src/platform/config/environment';
import { ErrorCode } from '../src/platform/errors/error-code';
import { grpcStatusFor } from '../src/platform/errors/grpc-error.mapping';
import { httpStatusFor } from '../src/platform/errors/http-error.mapping';
import { jsonRpcCodeFor } from '../src/platform/errors/json-rpc-error.mapping';

/** The README and .env.example must say what the code does. */
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const envExample = readFileSync(join(PROJECT_ROOT, '.env.example'), 'utf8');

function tableRows(firstHeader: string): string[][] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => new RegExp(`^\\|\\s*${firstHeader}\\s*\\|`).test(l));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    );
  }
  return rows;
}

describe('README', () => {
  const defaults = Object.entries(new EnvironmentVariables()).filter(([, value]) => value !== undefined);
  const variables = ENVIRONMENT_VARIABLES;

  it('documents every environment variable with its real default', () => {
    const rows = new Map(tableRows('Variable').map(([name, value]) => [name, value]));
    expect([...rows.keys()].sort()).toEqual([...variables].sort());
    for (const [name, value] of defaults)
      expect({ name, value: rows.get(name) }).toEqual({ name, value: String(value) });
  });

  it('lists every variable in .env.example', () => {
    for (const name of variables) expect(envExample).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });

  it('shows the error table the transports really use', () => {
    const rows = tableRows('Code');
    expect(rows.map(([code]) => code).sort()).toEqual(Object.values(ErrorCode).sort());
    for (const [code, http, jsonRpc, grpc] of rows) {
      const errorCode = code as ErrorCode;
      expect({ code, http: Number(http), jsonRpc: Number(jsonRpc), grpc }).toEqual({
        code,
        http: httpStatusFor(errorCode),
        jsonRpc: jsonRpcCodeFor(errorCode),
        grpc: GrpcStatus[grpcStatusFor(errorCode)],
      });
    }
  });

  it('keeps the quick start to the two commands', () => {
    const quickStart = readme.split('## Quick start')[1].split('\n## ')[0];
    const commands = /```sh\n([\s\S]*?)```/.exec(quickStart)![1].trim().split('\n');
    expect(commands.map((c) => c.replace(/\s+#.*$/, ''))).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });
});
