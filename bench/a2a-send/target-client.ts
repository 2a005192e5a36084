import { join } from 'node:path';
import { BenchProcess } from '../support/child-process';
import type { HubOptions } from './hub';
import type { EchoOptions, TargetInfo, TargetKind } from './target-process';

/** A server under test in its own process (see target-process.ts), driven over IPC. */
export type TargetProcess = BenchProcess<TargetInfo>;

export const TargetProcess = {
  /** `nodeOptions`: NODE_OPTIONS for this process alone (e.g. V8 flags for a hub). */
  start(
    label: string,
    kind: TargetKind,
    options: HubOptions | EchoOptions = {},
    nodeOptions?: string,
  ): Promise<TargetProcess> {
    return BenchProcess.start<TargetInfo>(
      label,
      join(__dirname, 'target-process.ts'),
      [kind, JSON.stringify(options)],
      {
        env: nodeOptions ? { NODE_OPTIONS: nodeOptions } : undefined,
      },
    );
  },
};
