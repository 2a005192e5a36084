import { decodeErrorInfo, decodeStatus } from '@a2a-js/sdk/errors/grpc';
import { createFileRegistry, fromBinary, toJson } from '@bufbuild/protobuf';
import { anyUnpack, FileDescriptorSetSchema, type Any } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger as Pino } from 'pino';
import { DESCRIPTOR_SET_FILE } from '../src/platform/grpc/descriptor-set';
import { GrpcRuntime } from '../src/platform/grpc/grpc-runtime';
import { ROOT_LOGGER } from '../src/platform/logging/pino-nest-logger';
import { Metrics } from '../src/platform/metrics/metrics';
import {
  call,
  healthClient,
  reflectedServices,
  switchboardClient,
  systemClient,
  SystemClient,
} from './support/grpc-clients';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Unary = (
  request: object,
  metadata: grpc.Metadata,
  callback: (e: grpc.ServiceError | null, r: Json) => void,
) => void;

interface RegistryClient extends grpc.Client {
  RegisterAgent: Unary;
  DeleteAgent: Unary;
  RefreshAgent: Unary;
}

interface TaskClient extends grpc.Client {
  CreateTasks: Unary;
  ExecuteTask: Unary;
  CancelTask: Unary;
  WatchTaskTree(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<Json>;
}

const auth = { 'x-api-key': TEST_ADMIN_KEY };

/** Every service the hub serves on its gRPC port. */
const SERVED = [
  'switchboard.v1.SystemService',
  'switchboard.v1.RegistryService',
  'switchboard.v1.TaskService',
  'switchboard.v2.SystemService',
  'switchboard.v2.RegistryService',
  'switchboard.v2.TaskService',
  'grpc.health.v1.Health',
  'grpc.reflection.v1.ServerReflection',
  'grpc.reflection.v1alpha.ServerReflection',
  'lf.a2a.v1.A2AService',
  'a2a.v1.A2AService',
];

/** Every detail of an error's google.rpc.Status, decoded with the served protos, as JSON. */
function statusDetails(error: grpc.ServiceError | undefined): Json[] {
  const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(DESCRIPTOR_SET_FILE)));
  const [bin] = error?.metadata.get('grpc-status-details-bin') ?? [];
  const status = fromBinary(registry.getMessage('google.rpc.Status')!, bin as Buffer) as unknown as { details: Any[] };
  return status.details.map((detail) => {
    const message = anyUnpack(detail, registry)!;
    return { type: message.$typeName, ...(toJson(registry.getMessage(message.$typeName)!, message) as Json) };
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gRPC for platform teams: health, access log, metrics, status codes (e2e)', () => {
  let t: TestApp;
  let health: ReturnType<typeof healthClient>;
  let system: SystemClient;
  let tasks: TaskClient;
  let registry: RegistryClient;

  beforeAll(async () => {
    t = await startTestApp();
    health = healthClient(t.grpcAddress);
    system = systemClient(t.grpcAddress);
    tasks = switchboardClient<TaskClient>('tasks', 'TaskService', t.grpcAddress);
    registry = switchboardClient<RegistryClient>('registry', 'RegistryService', t.grpcAddress);
  });
  afterAll(async () => {
    for (const c of [health, system, tasks, registry]) c?.close();
    await t?.close();
  });

  const check = async (service: string) => (await call(health.Check, health, { service })).response?.status;

  describe('health per service', () => {
    it('answers SERVING for every served service, A2A ones and every reflected one included', async () => {
      const reflected = await reflectedServices(t.grpcAddress);
      const names = [...new Set(['', ...SERVED, ...reflected])];
      for (const name of names) expect([name, await check(name)]).toEqual([name, 'SERVING']);
      expect(t.app.get(GrpcRuntime).servedServices().sort()).toEqual(['', ...SERVED].sort());
    });

    it('still answers NOT_FOUND for a service the hub does not serve', async () => {
      const { error } = await call(health.Check, health, { service: 'switchboard.v1.NoSuchService' });
      expect(error?.code).toBe(grpc.status.NOT_FOUND);
    });

    it('follows readiness for every service exactly as for ""', async () => {
      const runtime = t.app.get(GrpcRuntime);
      runtime.setServing(false);
      try {
        for (const name of ['', ...SERVED]) expect([name, await check(name)]).toEqual([name, 'NOT_SERVING']);
      } finally {
        runtime.setServing(true);
      }
      for (const name of ['', ...SERVED]) expect([name, await check(name)]).toEqual([name, 'SERVING']);
    });
  });

  describe('access log and metrics', () => {
    let pino: Pino;
    let lines: { level: string; fields: Json; msg: string }[];
    let level: string;

    beforeEach(() => {
      pino = t.app.get<Pino>(ROOT_LOGGER);
      level = pino.level;
      pino.level = 'info';
      lines = [];
      for (const name of ['info', 'error'] as const) {
        jest.spyOn(pino, name).mockImplementation(((fields: Json, msg: string) => {
          if (typeof fields === 'object' && fields && 'grpc' in fields) lines.push({ level: name, fields, msg });
        }) as never);
      }
    });
    afterEach(() => {
      jest.restoreAllMocks();
      pino.level = level;
    });

    it('writes one line per call: method, status code name, time, peer and request id; health checks are not logged', async () => {
      const ok = await call(system.GetInfo, system, {}, { ...auth, 'x-request-id': 'ci-smoke.42' });
      expect(ok.error).toBeUndefined();
      const refused = await call(system.GetInfo, system, {}, { 'x-api-key': 'wrong-key-wrong-key-wrong' });
      expect(refused.error?.code).toBe(grpc.status.UNAUTHENTICATED);
      expect(await check('switchboard.v1.SystemService')).toBe('SERVING');
      await sleep(50);

      expect(lines).toHaveLength(2);
      expect(lines[0]).toEqual({
        level: 'info',
        msg: 'gRPC call completed',
        fields: {
          grpc: {
            id: 'ci-smoke.42',
            method: '/switchboard.v1.SystemService/GetInfo',
            peer: expect.stringMatching(/127\.0\.0\.1/),
            userAgent: expect.stringMatching(/^grpc-node-js\//),
          },
          code: 'OK',
          responseTime: expect.any(Number),
        },
      });
      expect(lines[1].fields).toMatchObject({ grpc: { id: undefined }, code: 'UNAUTHENTICATED' });
      // Keys never reach the log line.
      expect(JSON.stringify(lines)).not.toMatch(/wrong-key|test-admin-key/);
    });

    it('counts a stream the client cancelled as CANCELLED, in the metric and the log', async () => {
      const created = await call(tasks.CreateTasks, tasks, { tasks: [{ name: 'watched' }] }, auth);
      expect(created.error).toBeUndefined();
      const metadata = new grpc.Metadata();
      metadata.set('x-api-key', TEST_ADMIN_KEY);
      const stream = tasks.WatchTaskTree({ task_id: created.response!.id }, metadata);
      const closed = new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
      await sleep(200);
      stream.cancel();
      expect((await closed).code).toBe(grpc.status.CANCELLED);
      await sleep(200);

      const metrics = await t.app.get(Metrics).registry.metrics();
      const count = (code: string) =>
        new RegExp(
          `switchboard_grpc_request_duration_seconds_count\\{service="switchboard.v1.TaskService",method="WatchTaskTree",code="${code}"\\} (\\d+)`,
        ).exec(metrics)?.[1];
      expect(count('CANCELLED')).toBe('1');
      expect(count('OK')).toBeUndefined();
      const watched = lines.filter((line) => line.fields.grpc.method === '/switchboard.v1.TaskService/WatchTaskTree');
      expect(watched).toEqual([expect.objectContaining({ level: 'info', msg: 'gRPC call cancelled' })]);
      expect(watched[0].fields.code).toBe('CANCELLED');
    });
  });

  describe('status codes', () => {
    it('names each invalid field in a google.rpc.BadRequest', async () => {
      const bad = await call(tasks.CreateTasks, tasks, { tasks: [{ name: 'x', inputs_json: '{not json' }] }, auth);
      expect(bad.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(statusDetails(bad.error)).toEqual([
        expect.objectContaining({ type: 'google.rpc.ErrorInfo', reason: 'VALIDATION_FAILED', domain: 'switchboard' }),
        {
          type: 'google.rpc.BadRequest',
          fieldViolations: [{ field: 'tasks[0].inputs_json', description: 'must be JSON' }],
        },
      ]);
    });

    /** The google.rpc.ErrorInfo of a refusal's grpc-status-details-bin. */
    const errorInfo = (error: grpc.ServiceError | undefined) => {
      const [bin] = error?.metadata.get('grpc-status-details-bin') ?? [];
      const status = decodeStatus(bin as Buffer);
      expect(status).toMatchObject({ code: error?.code, message: error?.details });
      expect(status.details.map((detail) => detail.typeUrl)).toEqual(['type.googleapis.com/google.rpc.ErrorInfo']);
      return decodeErrorInfo(status.details[0].value);
    };

    it('refuses removing or refreshing the built-in agent with FAILED_PRECONDITION, the code in an ErrorInfo', async () => {
      const removed = await call(registry.DeleteAgent, registry, { agent_id: 'orchestrator' }, auth);
      expect(removed.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(removed.error?.metadata.get('x-error-code')).toEqual(['INVALID_STATE']);
      expect(errorInfo(removed.error)).toEqual({ reason: 'INVALID_STATE', domain: 'switchboard', metadata: {} });
      const refreshed = await call(registry.RefreshAgent, registry, { agent_id: 'orchestrator' }, auth);
      expect(refreshed.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    });

    it('keeps ALREADY_EXISTS for true duplicates only', async () => {
      const id = randomUUID();
      expect((await call(tasks.CreateTasks, tasks, { tasks: [{ id, name: 'first' }] }, auth)).error).toBeUndefined();
      const again = await call(tasks.CreateTasks, tasks, { tasks: [{ id, name: 'again' }] }, auth);
      expect(again.error?.code).toBe(grpc.status.ALREADY_EXISTS);
      expect(errorInfo(again.error)).toMatchObject({
        reason: 'CONFLICT',
        domain: 'switchboard',
        metadata: { field: 'id' },
      });
    });

    it('answers executing a running tree and cancelling a finished task with FAILED_PRECONDITION', async () => {
      const running = await call(
        tasks.CreateTasks,
        tasks,
        { tasks: [{ name: 'slow', schemas_json: '{"method":"sleep"}', inputs_json: '{"ms":1500}' }] },
        auth,
      );
      const slowId = running.response!.id as string;
      expect((await call(tasks.ExecuteTask, tasks, { task_id: slowId }, auth)).error).toBeUndefined();
      const twice = await call(tasks.ExecuteTask, tasks, { task_id: slowId }, auth);
      expect(twice.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(errorInfo(twice.error).reason).toBe('INVALID_STATE');

      // Cancelled (or completed, if it was quicker), the task is finished: cancelling it again is refused.
      const quick = await call(tasks.CreateTasks, tasks, { tasks: [{ name: 'quick' }] }, auth);
      const quickId = quick.response!.id as string;
      expect((await call(tasks.ExecuteTask, tasks, { task_id: quickId }, auth)).error).toBeUndefined();
      await call(tasks.CancelTask, tasks, { task_id: quickId }, auth);
      const again = await call(tasks.CancelTask, tasks, { task_id: quickId }, auth);
      expect(again.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(again.error?.details).toMatch(/is already (cancelled|completed)/);
      expect(errorInfo(again.error)).toMatchObject({
        reason: 'INVALID_STATE',
        metadata: { status: expect.stringMatching(/^(cancelled|completed)$/) },
      });
    });
  });
});

describe('gRPC SystemService is not rate limited (e2e)', () => {
  let t: TestApp;
  let system: SystemClient;
  let registry: RegistryClient;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '2' });
    system = systemClient(t.grpcAddress);
    registry = switchboardClient<RegistryClient>('registry', 'RegistryService', t.grpcAddress);
  });
  afterAll(async () => {
    system?.close();
    registry?.close();
    await t?.close();
  });

  it('answers 20 GetInfo calls with a registry limit of 2, while registry writes are still limited', async () => {
    for (let i = 0; i < 20; i++) {
      const info = await call(system.GetInfo, system, {}, auth);
      expect([i, info.error?.code]).toEqual([i, undefined]);
    }
    const register = () => call(registry.RegisterAgent, registry, { base_url: 'not a url' }, auth);
    expect((await register()).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await register()).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    const refused = (await register()).error;
    expect(refused?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(refused?.metadata.get('retry-after')).toEqual([expect.stringMatching(/^\d+$/)]);
    const retryAfter = refused?.metadata.get('retry-after')[0] as string;
    expect(statusDetails(refused)).toEqual([
      expect.objectContaining({ type: 'google.rpc.ErrorInfo', reason: 'RATE_LIMITED' }),
      { type: 'google.rpc.RetryInfo', retryDelay: `${retryAfter}s` },
    ]);
    expect((await call(system.GetInfo, system, {}, auth)).error).toBeUndefined();
  });
});
