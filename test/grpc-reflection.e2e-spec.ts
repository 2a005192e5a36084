import { createFileRegistry, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { PROTO_DIR } from '../src/paths';
import { bufCurl, bufJson } from './support/grpc-buf-curl';
import { startLightsAgent, RemoteAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/** Every service the hub serves on its gRPC port, as reflection lists them. */
const SERVED = [
  'a2a.v1.A2AService',
  'grpc.health.v1.Health',
  'grpc.reflection.v1.ServerReflection',
  'grpc.reflection.v1alpha.ServerReflection',
  'lf.a2a.v1.A2AService',
  'switchboard.v1.RegistryService',
  'switchboard.v1.SystemService',
  'switchboard.v1.TaskService',
  'switchboard.v2.RegistryService',
  'switchboard.v2.SystemService',
  'switchboard.v2.TaskService',
];

interface ReflectionStream {
  write(request: object): void;
  end(): void;
  on(
    event: 'data',
    listener: (reply: { file_descriptor_response?: { file_descriptor_proto: Buffer[] } }) => void,
  ): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

describe('gRPC server reflection from the buf FileDescriptorSet, through buf curl (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let url: string;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    url = `http://${t.grpcAddress}`;
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  const json = bufJson;

  /** The files a reflection `file_containing_symbol` answer carries, decoded. */
  async function filesFor(symbol: string) {
    const file = join(PROTO_DIR, 'grpc/reflection/v1/reflection.proto');
    const definition = protoLoader.loadSync(file, { keepCase: true, oneofs: true, includeDirs: [PROTO_DIR] });
    const Client = grpc.makeGenericClientConstructor(
      definition['grpc.reflection.v1.ServerReflection'] as grpc.ServiceDefinition,
      'ServerReflection',
    );
    const client = new Client(t.grpcAddress, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      ServerReflectionInfo(): ReflectionStream;
    };
    try {
      const bytes = await new Promise<Buffer[]>((resolve, reject) => {
        const stream = client.ServerReflectionInfo();
        stream.on('data', (reply) => resolve(reply.file_descriptor_response?.file_descriptor_proto ?? []));
        stream.on('error', reject);
        stream.write({ file_containing_symbol: symbol });
        stream.end();
      });
      return bytes.map((b) => fromBinary(FileDescriptorProtoSchema, b));
    } finally {
      client.close();
    }
  }

  it('lists every served service and every method of each, describing all of them', async () => {
    const listed = await bufCurl(['--list-services', url]);
    expect(listed.stderr).toBe('');
    expect(listed.stdout.trim().split('\n')).toEqual(SERVED);
    // Listing methods resolves every service's descriptor (and its imports) through reflection.
    const methods = await bufCurl(['--list-methods', url]);
    expect(methods.stderr).toBe('');
    const services = new Set(
      methods.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('/')[0]),
    );
    expect([...services].sort()).toEqual(SERVED);
    expect(methods.stdout).toContain('switchboard.v1.TaskService/WatchTaskTree');
    expect(methods.stdout).toContain('lf.a2a.v1.A2AService/SendMessage');
  });

  it('describes with the real files: names, comments, *Entry maps, proto3 optional, qualified type names', async () => {
    const files = await filesFor('switchboard.v1.TaskService');
    const tasks = files[0];
    expect(tasks.name).toBe('switchboard/v1/tasks.proto');
    const push = tasks.messageType.find((m) => m.name === 'PushConfig');
    expect(push?.nestedType.map((n) => [n.name, n.options?.mapEntry])).toEqual([['HeadersEntry', true]]);
    expect(push?.field.find((f) => f.name === 'headers')?.typeName).toBe('.switchboard.v1.PushConfig.HeadersEntry');
    const required = tasks.messageType.find((m) => m.name === 'Dependency')?.field.find((f) => f.name === 'required');
    expect(required?.proto3Optional).toBe(true);
    const typeNames = tasks.messageType.flatMap((m) => m.field.map((f) => f.typeName)).filter(Boolean);
    expect(typeNames.every((name) => name.startsWith('.switchboard.v1.'))).toBe(true);
    const comments = tasks.sourceCodeInfo?.location.map((l) => l.leadingComments).join('\n');
    expect(comments).toContain('apflow task trees');
  });

  it("gives the A2A specification's files with every import, so a protoc registry links them", async () => {
    const files = await filesFor('lf.a2a.v1.A2AService');
    expect(files[0].name).toBe('lf/a2a/v1/a2a.proto');
    expect(files.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'google/api/annotations.proto',
        'google/protobuf/struct.proto',
        'google/protobuf/timestamp.proto',
      ]),
    );
    // Linking resolves every import and type name, as Go's protoregistry or grpcurl would.
    const byName = new Map(files.map((f) => [f.name, f]));
    const registry = createFileRegistry(files[0], (name) => byName.get(name));
    expect(registry.getService('lf.a2a.v1.A2AService')?.methods.map((m) => m.name)).toContain('SendMessage');
    const request = registry.getMessage('lf.a2a.v1.SendMessageRequest');
    expect(request?.fields.map((f) => [f.name, f.number])).toEqual(
      expect.arrayContaining([
        ['tenant', 1],
        ['message', 2],
        ['configuration', 3],
      ]),
    );
  });

  it('calls SystemService.GetInfo with an API key', async () => {
    const info = json(
      await bufCurl(['-d', '{}', `${url}/switchboard.v1.SystemService/GetInfo`], { 'x-api-key': TEST_ADMIN_KEY }),
    );
    expect(info).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
      caller: { scopes: expect.any(Array) },
    });
  });

  it('checks health of a named service', async () => {
    const body = JSON.stringify({ service: 'switchboard.v1.RegistryService' });
    expect(json(await bufCurl(['-d', body, `${url}/grpc.health.v1.Health/Check`]))).toEqual({ status: 'SERVING' });
    const unknown = await bufCurl(['-d', '{"service":"no.such.Service"}', `${url}/grpc.health.v1.Health/Check`]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/not_found/i);
  });

  it('calls an agent over A2A gRPC, naming it with x-agent-id metadata', async () => {
    const headers = { 'x-api-key': TEST_ADMIN_KEY, 'x-agent-id': 'lights' };
    const message = {
      message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'turn on the kitchen lights' }] },
      configuration: { returnImmediately: false },
    };
    const args = ['-d', JSON.stringify(message), `${url}/lf.a2a.v1.A2AService/SendMessage`];
    const sent = json(await bufCurl(args, { ...headers, 'a2a-version': '1.0' }));
    expect(sent.task).toMatchObject({ status: { state: 'TASK_STATE_COMPLETED' } });
    expect(JSON.stringify(sent.task.artifacts)).toContain('Lights: turn on the kitchen lights');

    // GetAgentCard (v0.3) reaches the named agent; the SDK answers it with the authenticated
    // extended card, which this agent does not offer.
    const card = await bufCurl(['-d', '{}', `${url}/a2a.v1.A2AService/GetAgentCard`], headers);
    expect(card.code).not.toBe(0);
    expect(card.stderr).toMatch(/"code": "failed_precondition"[\s\S]*extended card/);
    const unknown = await bufCurl(['-d', '{}', `${url}/a2a.v1.A2AService/GetAgentCard`], {
      ...headers,
      'x-agent-id': 'nobody',
    });
    expect(unknown.stderr).toMatch(/"code": "not_found"/);
  });
});
