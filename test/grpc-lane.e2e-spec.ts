import * as grpc from '@grpc/grpc-js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { decodeErrorInfo, decodeStatus } from '@a2a-js/sdk/errors/grpc';
import type { ExecutionContext } from '@nestjs/common';
import { join } from 'node:path';
import { PROTO_DIR } from '../src/paths';
import { ApiKeyGuard } from '../src/platform/auth/api-key.guard';
import { PROTO_FILES } from '../src/platform/grpc/grpc-runtime';
import { GrpcMethodCatalog } from '../src/platform/grpc/grpc-method-catalog';
import { call, switchboardClient, systemClient, SystemClient, Unary } from './support/grpc-clients';
import { createApiKey, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface RegistryClient extends grpc.Client {
  ListAgentCards: Unary<object, Json>;
  RegisterAgent: Unary<object, Json>;
  GetAgent: Unary<object, Json>;
}

interface TaskClient extends grpc.Client {
  GetTask: Unary<object, Json>;
  WatchTaskTree(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<Json>;
}

/** The unary and the streaming methods our protos declare, as `package.Service/Method`. */
function declaredMethods(): { unary: string[]; streaming: string[] } {
  const definition = protoLoader.loadSync(
    PROTO_FILES.map((file) => join(PROTO_DIR, file)),
    { includeDirs: [PROTO_DIR] },
  );
  const unary: string[] = [];
  const streaming: string[] = [];
  for (const [name, service] of Object.entries(definition)) {
    if (!name.startsWith('switchboard.')) continue;
    for (const method of Object.values(service as Record<string, protoLoader.MethodDefinition<object, object>>)) {
      if (typeof method?.path !== 'string') continue;
      (method.requestStream || method.responseStream ? streaming : unary).push(method.path.slice(1));
    }
  }
  return { unary: unary.sort(), streaming: streaming.sort() };
}

function errorCode(error: grpc.ServiceError | undefined): string | undefined {
  const [bin] = error?.metadata.get('grpc-status-details-bin') ?? [];
  if (!bin) return undefined;
  const info = decodeErrorInfo(decodeStatus(bin as Buffer).details[0].value);
  expect(info.domain).toBe('switchboard');
  return info.reason;
}

describe('gRPC lane: our unary methods answered ahead of Nest, with the same decisions (e2e)', () => {
  let t: TestApp;
  let guard: jest.SpyInstance;
  let system: SystemClient;
  let registry: RegistryClient;
  let tasks: TaskClient;
  const admin = { 'x-api-key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    guard = jest.spyOn(ApiKeyGuard.prototype, 'canActivate');
    t = await startTestApp();
    system = systemClient(t.grpcAddress);
    registry = switchboardClient<RegistryClient>('registry', 'RegistryService', t.grpcAddress);
    tasks = switchboardClient<TaskClient>('tasks', 'TaskService', t.grpcAddress);
  });
  afterAll(async () => {
    for (const client of [system, registry, tasks]) client?.close();
    await t?.close();
    guard?.mockRestore();
  });
  beforeEach(() => guard.mockClear());
  /** How often Nest's API-key guard decided a gRPC call. */
  const rpcGuardCalls = () =>
    guard.mock.calls.filter(([context]) => (context as ExecutionContext).getType() === 'rpc').length;

  it("binds every method our protos declare, with the scopes and limit policy of its handler's decorators", () => {
    const bindings = t.app.get(GrpcMethodCatalog).bindings();
    const { unary, streaming } = declaredMethods();
    // @GrpcMethod does not say whether a method streams its answer: the lane reads that from the
    // service definition and leaves the streaming ones to Nest (next tests).
    expect([...bindings.keys()].sort()).toEqual([...unary, ...streaming].sort());
    expect(streaming).toEqual(
      expect.arrayContaining([
        'switchboard.v2.TaskService/WatchTaskTree',
        'switchboard.v2.TaskService/ExecuteTaskStream',
      ]),
    );
    const decisions = (name: string) => {
      const binding = bindings.get(name)!;
      return { access: binding.access, policy: binding.policy };
    };
    expect(decisions('switchboard.v2.SystemService/GetInfo')).toEqual({ access: [], policy: undefined });
    expect(decisions('switchboard.v1.SystemService/GetInfo')).toEqual({ access: [], policy: undefined });
    expect(decisions('switchboard.v2.RegistryService/ListAgentCards')).toEqual({
      access: ['agents:read'],
      policy: 'registry',
    });
    expect(decisions('switchboard.v2.RegistryService/GetAgentExtended')).toEqual({
      access: ['admin'],
      policy: 'registry',
    });
    expect(decisions('switchboard.v1.RegistryService/DeleteAgent')).toEqual({
      access: ['agents:write'],
      policy: 'registry',
    });
    expect(decisions('switchboard.v2.TaskService/ListTasks')).toEqual({ access: ['tasks'], policy: 'tasks' });
  });

  it('answers unary calls without Nest guards: the caller reaches the handler, refusals carry the domain code', async () => {
    const reader = await createApiKey(t, ['agents:read'], { name: 'lane-reader' });

    const info = await call(system.GetInfo, system, {}, { 'x-api-key': reader });
    expect(info.error).toBeUndefined();
    expect(info.response).toMatchObject({
      name: 'switchboard',
      caller: { key_name: 'lane-reader', scopes: ['agents:read'] },
    });

    const cards = await call(registry.ListAgentCards, registry, {}, { 'x-api-key': reader });
    expect(cards.error).toBeUndefined();
    expect(cards.response?.cards_json.length).toBeGreaterThan(0);

    const anonymous = await call(system.GetInfo, system, {});
    expect(anonymous.error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
    expect(errorCode(anonymous.error)).toBe('UNAUTHENTICATED');

    const writeWithReadKey = await call(
      registry.RegisterAgent,
      registry,
      { base_url: 'http://127.0.0.1:9' },
      {
        'x-api-key': reader,
      },
    );
    expect(writeWithReadKey.error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(errorCode(writeWithReadKey.error)).toBe('FORBIDDEN');

    const missing = await call(registry.GetAgent, registry, { agent_id: 'no-such-agent' }, admin);
    expect(missing.error?.code).toBe(GrpcStatus.NOT_FOUND);
    expect(errorCode(missing.error)).toBe('NOT_FOUND');

    const invalid = await call(tasks.GetTask, tasks, { task_id: '' }, admin);
    expect(invalid.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);

    expect(rpcGuardCalls()).toBe(0);
  });

  it('leaves streaming methods to Nest, whose guard still decides them', async () => {
    const stream = tasks.WatchTaskTree({ task_id: 'no-such-task' }, grpc.Metadata.fromHttp2Headers(admin));
    const error = await new Promise<grpc.ServiceError>((resolve) => {
      stream.on('error', resolve);
      stream.on('data', () => undefined);
    });
    expect(error.code).toBe(GrpcStatus.NOT_FOUND);
    expect(rpcGuardCalls()).toBeGreaterThan(0);
  });
});
