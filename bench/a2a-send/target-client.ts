import { join } from 'node:path';
import { BenchProcess } from '../support/child-process';
import type { HubOptions } from './hub';
import type { EchoOptions, TargetInfo, TargetKind } from './target-process';

/** A server under test in its own process (see target-process.ts), driven over IPC. */
export type TargetProcess = BenchProcess<TargetInfo>;

export const TargetProcess = {
  start(label: string, kind: TargetKind, options: HubOptions | EchoOptions = {}): Promise<TargetProcess> {
    return BenchProcess.start<TargetInfo>(label, join(__dirname, 'target-process.ts'), [kind, JSON.stringify(options)]);
  },
};
