import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/paths';

const BUF = join(PROJECT_ROOT, 'node_modules/.bin/buf');

export interface BufCurlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `buf curl` (the binary of the npm package @bufbuild/buf) over gRPC with HTTP/2 prior knowledge,
 * its schema from the server's reflection only: run from `/`, it never sees proto/.
 */
export function bufCurl(args: string[], headers: Record<string, string> = {}): Promise<BufCurlResult> {
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const argv = ['curl', '--protocol', 'grpc', '--http2-prior-knowledge', '--reflect', ...headerArgs, ...args];
  return new Promise((resolve) => {
    execFile(BUF, argv, { cwd: '/', timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The JSON answer of a successful call; a failed one throws with buf's error output. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function bufJson(result: BufCurlResult): Record<string, any> {
  if (result.code !== 0) throw new Error(`buf curl failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** `buf curl` calling `method` (`pkg.Service/Method`) at `address` with a JSON request. */
export function bufCall(address: string, method: string, request: object, headers: Record<string, string> = {}) {
  return bufCurl(['-d', JSON.stringify(request), `http://${address}/${method}`], headers);
}
