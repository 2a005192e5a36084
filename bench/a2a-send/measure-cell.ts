import { cpuBetween, cpuSnapshot, settle } from './cpu';
import { measureWith } from './load';
import type { Options } from './options';
import type { Cell } from './plan';
import { summarizeFile } from './profile-summary';
import type { RoundResult } from './report';
import { allServers, loadTarget, Servers } from './servers';

export interface CellProfile {
  cell: string;
  connections: number;
  file: string;
  summary: ReturnType<typeof summarizeFile>;
}

/**
 * One measured window of one cell, with the CPU every involved process used around it; with
 * `profileFile`, a CPU profile of the process answering the client over that window.
 */
export async function measureCell(
  cell: Cell,
  connections: number,
  servers: Servers,
  options: Pick<Options, 'durationSeconds' | 'warmupSeconds' | 'rate'>,
  profileFile?: string,
): Promise<{ result: RoundResult; profile?: CellProfile['summary'] }> {
  const { involved, target } = loadTarget(cell, servers);
  const idle = allServers(servers).filter((s) => !involved.includes(s));
  let before: Awaited<ReturnType<typeof cpuSnapshot>> | undefined;
  let after: typeof before;
  await settle(involved);
  const measured = await measureWith(
    target,
    {
      connections,
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      rate: options.rate,
    },
    {
      beforeMeasured: async () => {
        if (profileFile) await involved[0].request({ type: 'profile-start' });
        before = await cpuSnapshot(involved, idle);
      },
      afterMeasured: async () => {
        after = await cpuSnapshot(involved, idle);
        if (profileFile) await involved[0].request({ type: 'profile-stop', path: profileFile });
      },
    },
  );
  const result: RoundResult = { ...measured, cpu: cpuBetween(before!, after!, measured.responses) };
  return { result, profile: profileFile ? summarizeFile(profileFile, 25, result.responses) : undefined };
}

/** The progress line after a window. */
export function progressLine(result: RoundResult): string {
  return (
    `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, ` +
    `p99 ${result.latencyMs.p99.toFixed(2)} ms, ${result.cpu.servers[0].microsPerAnswer} µs CPU/answer, ` +
    `${result.errors.total + result.warmup.errors} errors`
  );
}
