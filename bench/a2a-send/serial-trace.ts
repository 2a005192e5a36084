/**
 * Where one request's serial time goes at 1 connection. The hub runs in this process, its phases
 * timed by wrapping methods on the path (gate, rate limit, SDK handler, executor, outbound call,
 * key-value operations, task store, the orchestrator's routing and context write); the remote
 * echo server runs in a child process (target-process.ts); requests go one at a time over one
 * keep-alive socket from this process. Prints, per step, the median time since the step before
 * (a `>` is a call, a `<` its promise settling), the median request and CPU per request (hub and
 * client: both are in this process). The first quarter of the requests is warm-up.
 *
 *   node -r ts-node/register/transpile-only bench/a2a-send/serial-trace.ts <real|embedded> [agentId] [requests]
 *
 * agentId: remote-echo-task (default), remote-echo or orchestrator. `real` needs PostgreSQL and
 * Redis on 127.0.0.1 (as bench/a2a-send). Wrapping costs a few microseconds per step; compare
 * runs of this script with each other, not with bench/a2a-send's figures.
 */
import http from 'node:http';
import { Agent as UndiciAgent } from 'undici';
import { A2aGate } from '../../src/a2a/a2a-gate';
import { GuardedRequestHandler } from '../../src/a2a/hosting/guarded-request-handler';
import { A2aHttpLane } from '../../src/a2a/http/a2a-http-lane';
import { KvTaskStore } from '../../src/a2a/store/kv-task.store';
import { AgentRunner } from '../../src/orchestration/agent-runner';
import { OrchestrationContextStore } from '../../src/orchestration/context/orchestration-context.store';
import { TurnPlanner } from '../../src/orchestration/turn-planner';
import { ApiKeyService } from '../../src/platform/auth/api-key.service';
import { InMemoryKeyValueStore } from '../../src/platform/kv/in-memory-key-value.store';
import { RedisKeyValueStore } from '../../src/platform/kv/redis-key-value.store';
import { OutboundHttp } from '../../src/platform/net/outbound-http';
import { RateLimiter } from '../../src/platform/rate-limit/rate-limiter';
import { RemoteAgentExecutor } from '../../src/registry/remote/remote-agent.executor';
import { startHub } from './hub';
import { TargetProcess } from './target-client';

const DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';

let marks: [string, bigint][] = [];
const mark = (name: string) => marks.push([name, process.hrtime.bigint()]);

/** Marks each call of `proto[name]` (`label>`) and when its result settles (`label<`, `label!`). */
function wrap(proto: object, name: string, label = name): void {
  const target = proto as Record<string, unknown>;
  const original = target[name];
  if (typeof original !== 'function') return;
  target[name] = function (this: unknown, ...args: unknown[]): unknown {
    mark(`${label}>`);
    const result: unknown = Reflect.apply(original, this, args);
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => (mark(`${label}<`), value),
        (error: unknown) => {
          mark(`${label}!`);
          throw error;
        },
      );
    }
    mark(`${label}<`);
    return result;
  };
}

function instrument(): void {
  wrap(A2aHttpLane.prototype, 'serve', 'lane.serve');
  wrap(A2aGate.prototype, 'admitHttp', 'gate');
  wrap(ApiKeyService.prototype, 'authorize', 'authorize');
  wrap(RateLimiter.prototype, 'consume', 'ratelimit');
  wrap(GuardedRequestHandler.prototype, 'sendMessage', 'sdk.sendMessage');
  wrap(KvTaskStore.prototype, 'beginExecution', 'beginExecution');
  wrap(KvTaskStore.prototype, 'save', 'store.save');
  wrap(TurnPlanner.prototype, 'plan', 'route');
  wrap(AgentRunner.prototype, 'runAll', 'runAgents');
  wrap(OrchestrationContextStore.prototype, 'update', 'context.update');
  wrap(RemoteAgentExecutor.prototype, 'execute', 'executor');
  wrap(OutboundHttp.prototype, 'dispatch', 'outbound');
  wrap(UndiciAgent.prototype, 'dispatch', 'undici.dispatch');
  for (const proto of [RedisKeyValueStore.prototype, InMemoryKeyValueStore.prototype]) {
    for (const name of ['get', 'getAndRenew', 'set', 'compareAndSet', 'increment']) wrap(proto, name, `kv.${name}`);
  }
  const { end } = http.ServerResponse.prototype as unknown as { end: (...args: unknown[]) => unknown };
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: unknown[]) {
    mark('res.end');
    return Reflect.apply(end, this, args) as http.ServerResponse;
  } as typeof http.ServerResponse.prototype.end;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const [backend = 'real', agentId = 'remote-echo-task', count = '2000'] = process.argv.slice(2);
  if (backend !== 'real' && backend !== 'embedded') throw new Error('backend: real or embedded');
  const remote = await TargetProcess.start('remote echo', 'echo', { variants: ['message', 'task'] });
  const hub = await startHub({
    databaseUrl: backend === 'real' ? DATABASE_URL : undefined,
    redisUrl: backend === 'real' ? REDIS_URL : undefined,
    logLevel: 'silent',
    localVariants: [],
    remoteOrigin: remote.info.baseUrl,
    remoteVariants: ['message', 'task'],
  });
  instrument();

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(hub.baseUrl);
  const send = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const text = agentId === 'orchestrator' ? `parrot #${i}` : `hello ${i}`;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: `m-${i}-${Date.now()}`,
            role: 'user',
            parts: [{ kind: 'text', text }],
          },
        },
      });
      const started = process.hrtime.bigint();
      marks = [['send', started]];
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: `/api/agents/${agentId}/v1`,
          headers: {
            'content-type': 'application/json',
            'x-api-key': hub.apiKey,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            mark('recv');
            const answer = Buffer.concat(chunks).toString();
            if (res.statusCode !== 200 || !answer.includes(`echo: ${text}`)) reject(new Error(answer));
            else resolve(Number(process.hrtime.bigint() - started) / 1000);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const steps = new Map<string, number[]>();
  const totals: number[] = [];
  // The hub's part of a request: from its sending to the agent's call, and from the agent's answer to its receipt.
  const beforeAgent: number[] = [];
  const afterAgent: number[] = [];
  const requests = Number(count);
  let cpuStart = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    const total = await send(i);
    if (i < requests / 4) continue;
    if (totals.length === 0) cpuStart = process.cpuUsage();
    totals.push(total);
    const called = marks.find(([name]) => name === 'outbound>');
    const answered = marks.findLast(([name]) => name === 'outbound<');
    const received = marks.findLast(([name]) => name === 'recv');
    if (called && answered && received) {
      beforeAgent.push(Number(called[1] - marks[0][1]) / 1000);
      afterAgent.push(Number(received[1] - answered[1]) / 1000);
    }
    let previous = marks[0][1];
    const seen = new Map<string, number>();
    for (const [name, at] of marks.slice(1)) {
      const nth = (seen.get(name) ?? 0) + 1;
      seen.set(name, nth);
      const key = nth > 1 ? `${name}#${nth}` : name;
      const list = steps.get(key) ?? [];
      list.push(Number(at - previous) / 1000);
      steps.set(key, list);
      previous = at;
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  console.log(
    `${backend} ${agentId}: ${totals.length} requests, median ${median(totals).toFixed(0)} µs, ` +
      `CPU ${((cpu.user + cpu.system) / totals.length).toFixed(0)} µs per request (hub + client)`,
  );
  if (beforeAgent.length) {
    console.log(
      `hub before the agent's call (send → outbound>) median ${median(beforeAgent).toFixed(0)} µs, ` +
        `after its answer (outbound< → recv) ${median(afterAgent).toFixed(0)} µs`,
    );
  }
  console.log('step (time since the step before), median µs, count');
  for (const [key, list] of steps)
    console.log(`  ${key.padEnd(24)} ${median(list).toFixed(0).padStart(6)}  ${list.length}`);
  agent.destroy();
  await hub.close();
  await remote.stop();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
