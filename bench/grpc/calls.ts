/**
 * The calls bench/grpc compares, each over gRPC and over its HTTP equivalent, with the check that
 * makes an answer count: GetInfo against GET /api/system, ListAgentCards against GET /agents, A2A
 * SendMessage (v1.0, gRPC) against message/send (JSON-RPC) to the same Task agent. Both clients are
 * thin: undici for HTTP, GrpcWire (node:http2) for gRPC.
 */
import { join } from 'node:path';
import { Pool } from 'undici';
import { GrpcWire, grpcFrame, loadProtos, wireMethod } from './grpc-wire';

const PROTO_DIR = join(__dirname, '..', '..', 'proto');

/** One call: resolves true when the answer is right, false when it is not. */
export type Call = (n: number) => Promise<boolean>;

export interface CallPair {
  name: string;
  grpc: Call;
  http: Call;
}

export interface Hub {
  baseUrl: string;
  grpcAddress: string;
  apiKey: string;
  /** The hub id of the remote Task echo agent. */
  taskAgentId: string;
  /** Concurrent connections (HTTP) and calls in flight (gRPC). */
  connections: number;
  /** HTTP/2 connections the gRPC calls are spread over. */
  grpcSessions: number;
}

/** The three methods, from the hub's own protos, read the way a generated client reads them. */
function methods() {
  const root = loadProtos(PROTO_DIR, [
    'switchboard/v2/system.proto',
    'switchboard/v2/registry.proto',
    'lf/a2a/v1/a2a.proto',
  ]);
  return {
    getInfo: wireMethod<object, { name?: string }>(root, 'switchboard.v2.SystemService', 'GetInfo'),
    listAgentCards: wireMethod<object, { cards?: unknown[] }>(root, 'switchboard.v2.RegistryService', 'ListAgentCards'),
    sendMessage: wireMethod<object, { task?: unknown }>(root, 'lf.a2a.v1.A2AService', 'SendMessage'),
  };
}

export function callPairs(hub: Hub): { pairs: CallPair[]; close: () => Promise<void> } {
  const { getInfo, listAgentCards, sendMessage } = methods();
  const wire = new GrpcWire(`http://${hub.grpcAddress}`, hub.grpcSessions);
  const auth = { 'x-api-key': hub.apiKey };
  const toAgent = { ...auth, 'x-agent-id': hub.taskAgentId, 'a2a-version': '1.0' };
  // Requests that are the same every time are encoded once.
  const getInfoFrame = grpcFrame(getInfo.encode({}));
  const listAgentCardsFrame = grpcFrame(listAgentCards.encode({}));
  const pool = new Pool(hub.baseUrl, { connections: hub.connections, pipelining: 1 });
  const get = async (path: string) => {
    const { statusCode, body } = await pool.request({ method: 'GET', path, headers: auth });
    return { statusCode, json: (await body.json()) as Record<string, unknown> | unknown[] };
  };
  const text = (n: number) => `grpc bench ${n}`;
  const pairs: CallPair[] = [
    {
      name: 'GetInfo / GET /api/system',
      grpc: async () => {
        const { status, answer } = await wire.call(getInfo, getInfoFrame, auth);
        return status === 0 && answer?.name === 'switchboard';
      },
      http: async () => {
        const { statusCode, json } = await get('/api/system');
        return statusCode === 200 && (json as Record<string, unknown>).name === 'switchboard';
      },
    },
    {
      name: 'ListAgentCards / GET /agents',
      grpc: async () => {
        const { status, answer } = await wire.call(listAgentCards, listAgentCardsFrame, auth);
        return status === 0 && (answer?.cards?.length ?? 0) > 0;
      },
      http: async () => {
        const { statusCode, json } = await get('/agents');
        return statusCode === 200 && Array.isArray(json) && json.length > 0;
      },
    },
    {
      name: 'A2A SendMessage (gRPC, v1.0) / message/send (JSON-RPC, v0.3), to the remote Task echo',
      grpc: async (n) => {
        const request = { message: { messageId: `g-${n}`, role: 'ROLE_USER', parts: [{ text: text(n) }] } };
        const { status, answer } = await wire.call(sendMessage, grpcFrame(sendMessage.encode(request)), toAgent);
        return status === 0 && answer?.task != null && JSON.stringify(answer.task).includes(text(n));
      },
      http: async (n) => {
        const { statusCode, body } = await pool.request({
          method: 'POST',
          path: `/api/agents/${hub.taskAgentId}/v1`,
          headers: { ...auth, 'content-type': 'application/json' },
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
      await wire.close();
      await pool.close();
    },
  };
}
