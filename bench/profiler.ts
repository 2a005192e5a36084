import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** CPU profile of this process over a measured window (not of boot), via the inspector. */
export class Profiler {
  private session?: Session;

  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 500 });
    await this.session.post('Profiler.start');
  }

  async stop(path: string): Promise<string> {
    if (!this.session) throw new Error('profiling was not started');
    const { profile } = await this.session.post('Profiler.stop');
    this.session.disconnect();
    this.session = undefined;
    writeFileSync(path, JSON.stringify(profile));
    return path;
  }
}
