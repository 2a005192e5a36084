/**
 * The calls bench/grpc compares, each over gRPC and over its HTTP equivalent, with the check that
 * makes an answer count: GetInfo against GET /api/system, ListAgentCards against GET /agents, A2A
 * SendMessage (v1.0, gRPC) against message/send (JSON-RPC) to the same Task agent.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { Pool } from 'undici';

const PROTO_DIR = join(__dirname, '..', '..', 'proto');

/** One call: resolves true when the answer is right, false when it is not. */
export type Call = (n: number) => Promise<boolean>;

export interface CallPair {
  name: string;
  grpc: Call;
  http: Call;
}

type Unary = (
  request: object,
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, answer?: Record<string, unknown>) => void,
) => void;

function loadServices(): Record<string, grpc.ServiceClientConstructor> {
  const definition = protoLoader.loadSync(
    ['switchboard/v2/system.proto', 'switchboard/v2/registry.proto', 'lf/a2a/v1/a2a.proto'],
    { includeDirs: [PROTO_DIR], keepCase: true, longs: String, enums: String, defaults: false, oneofs: true },
  );
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    switchboard: {
      v2: { SystemService: grpc.ServiceClientConstructor; RegistryService: grpc.ServiceClientConstructor };
    };
    lf: { a2a: { v1: { A2AService: grpc.ServiceClientConstructor } } };
  };
  return {
    system: loaded.switchboard.v2.SystemService,
    registry: loaded.switchboard.v2.RegistryService,
    a2a: loaded.lf.a2a.v1.A2AService,
  };
}

function unary(client: grpc.Client, method: string, request: object, metadata: grpc.Metadata) {
  return new Promise<Record<string, unknown>>((resolve, reject) =>
    (client[method as keyof grpc.Client] as unknown as Unary).call(client, request, metadata, (error, answer) =>
      error ? reject(error) : resolve(answer ?? {}),
    ),
  );
}

export interface Hub {
  baseUrl: string;
  grpcAddress: string;
  apiKey: string;
  /** The hub id of the remote Task echo agent. */
  taskAgentId: string;
  /** Concurrent connections (HTTP) and calls in flight (gRPC, on one channel). */
  connections: number;
}

export function callPairs(hub: Hub): { pairs: CallPair[]; close: () => Promise<void> } {
  const services = loadServices();
  const credentials = grpc.credentials.createInsecure();
  const system = new services.system(hub.grpcAddress, credentials);
  const registry = new services.registry(hub.grpcAddress, credentials);
  const a2a = new services.a2a(hub.grpcAddress, credentials);
  const auth = new grpc.Metadata();
  auth.set('x-api-key', hub.apiKey);
  const toAgent = auth.clone();
  toAgent.set('x-agent-id', hub.taskAgentId);
  toAgent.set('a2a-version', '1.0');
  const pool = new Pool(hub.baseUrl, { connections: hub.connections, pipelining: 1 });
  const get = async (path: string) => {
    const { statusCode, body } = await pool.request({ method: 'GET', path, headers: { 'x-api-key': hub.apiKey } });
    return { statusCode, json: (await body.json()) as Record<string, unknown> | unknown[] };
  };
  const text = (n: number) => `grpc bench ${n}`;
  const pairs: CallPair[] = [
    {
      name: 'GetInfo / GET /api/system',
      grpc: async () => (await unary(system, 'GetInfo', {}, auth)).name === 'switchboard',
      http: async () => {
        const { statusCode, json } = await get('/api/system');
        return statusCode === 200 && (json as Record<string, unknown>).name === 'switchboard';
      },
    },
    {
      name: 'ListAgentCards / GET /agents',
      grpc: async () => ((await unary(registry, 'ListAgentCards', {}, auth)).cards as unknown[]).length > 0,
      http: async () => {
        const { statusCode, json } = await get('/agents');
        return statusCode === 200 && Array.isArray(json) && json.length > 0;
      },
    },
    {
      name: 'A2A SendMessage (gRPC, v1.0) / message/send (JSON-RPC, v0.3), to the remote Task echo',
      grpc: async (n) => {
        const answer = await unary(
          a2a,
          'SendMessage',
          { message: { message_id: `g-${n}`, role: 'ROLE_USER', parts: [{ text: text(n) }] } },
          toAgent,
        );
        return JSON.stringify(answer.task ?? {}).includes(text(n));
      },
      http: async (n) => {
        const { statusCode, body } = await pool.request({
          method: 'POST',
          path: `/api/agents/${hub.taskAgentId}/v1`,
          headers: { 'x-api-key': hub.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: n,
            method: 'message/send',
            params: {
              message: { kind: 'message', messageId: `h-${n}`, role: 'user', parts: [{ kind: 'text', text: text(n) }] },
            },
          }),
        });
        const answer = (await body.json()) as { result?: { kind?: string } };
        return statusCode === 200 && answer.result?.kind === 'task' && JSON.stringify(answer.result).includes(text(n));
      },
    },
  ];
  return {
    pairs,
    close: async () => {
      for (const client of [system, registry, a2a]) client.close();
      await pool.close();
    },
  };
}
