import { HealthIndicatorService } from '@nestjs/terminus';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { KeyValueStore } from '../kv/key-value-store';
import type { ShutdownService } from '../lifecycle/shutdown.service';
import { HealthChecks, WARM_UP_LIMIT_MS } from './health-checks';

describe('HealthChecks: start-up work', () => {
  let checks: HealthChecks;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    checks = new HealthChecks(
      new HealthIndicatorService(),
      {} as AppConfig,
      {} as DataSource,
      {} as KeyValueStore,
      {} as ShutdownService,
    );
  });

  afterEach(() => jest.useRealTimers());

  /** A promise and the function that settles it. */
  function work() {
    let settle!: (ok: boolean) => void;
    const promise = new Promise<void>((resolve, reject) => {
      settle = (ok) => (ok ? resolve() : reject(new Error('could not load')));
    });
    return { promise, settle };
  }

  it('is up when nothing warms up', async () => {
    expect(await checks.warmedUp()).toEqual({ startup: { status: 'up' } });
  });

  it('is down, naming the work, until it is done', async () => {
    const model = work();
    const cards = work();
    checks.warmUp('the router model', model.promise);
    checks.warmUp('the catalogue', cards.promise);
    expect(await checks.warmedUp()).toEqual({
      startup: { status: 'down', message: 'starting: the router model, the catalogue' },
    });
    model.settle(true);
    await Promise.resolve();
    expect(await checks.warmedUp()).toEqual({ startup: { status: 'down', message: 'starting: the catalogue' } });
    cards.settle(false); // work that fails is over too: what depends on it says so itself
    await Promise.resolve();
    expect(await checks.warmedUp()).toEqual({ startup: { status: 'up' } });
  });

  it('stops waiting after WARM_UP_LIMIT_MS and says what it did not wait for', async () => {
    checks.warmUp('the router model', work().promise);
    jest.advanceTimersByTime(WARM_UP_LIMIT_MS - 1);
    expect((await checks.warmedUp()).startup.status).toBe('down');
    jest.advanceTimersByTime(1);
    expect(await checks.warmedUp()).toEqual({
      startup: { status: 'up', note: 'serving before it finished: the router model' },
    });
  });

  it('makes readiness wait too', async () => {
    checks.warmUp('the router model', work().promise);
    const [, warm] = checks.readiness();
    expect((await warm()).startup.status).toBe('down');
  });
});
