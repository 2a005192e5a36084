import * as grpc from '@grpc/grpc-js';
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import {
  ClientFactory as V03ClientFactory,
  JsonRpcTransportFactory as V03JsonRpcTransportFactory,
  RestTransportFactory as V03RestTransportFactory,
} from 'a2a-sdk-v03/client';
import { GrpcTransportFactory as V03GrpcTransportFactory } from 'a2a-sdk-v03/client/grpc';

export type Transport = 'JSONRPC' | 'HTTP+JSON' | 'GRPC';
export const TRANSPORTS: Transport[] = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

/** fetch that sends the API key, as a deployment's client would. */
function fetchWithKey(apiKey: string | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (apiKey) headers.set('X-Api-Key', apiKey);
    return fetch(input, { ...init, headers });
  };
}

/** gRPC interceptor adding metadata to every call. */
function withMetadata(entries: Record<string, string | undefined>): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        for (const [key, value] of Object.entries(entries)) if (value) metadata.set(key, value);
        next(metadata, listener);
      },
    });
}

/**
 * The official SDK 1.3 client (A2A v1.0), created from the agent's base URL as users do
 * (`createFromUrl`, card discovery included), forced onto one transport.
 */
export async function v1Client(agentBaseUrl: string, transport: Transport, apiKey?: string): Promise<Client> {
  const fetchImpl = fetchWithKey(apiKey);
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl }),
      new RestTransportFactory({ fetchImpl }),
      new GrpcTransportFactory({ grpcCallOptions: { interceptors: [withMetadata({ 'x-api-key': apiKey })] } }),
    ],
    preferredTransports: [transport],
    cardResolver: undefined,
  });
  return factory.createFromUrl(agentBaseUrl.endsWith('/') ? agentBaseUrl : `${agentBaseUrl}/`);
}

/**
 * The official SDK 0.3.14 client (A2A v0.3). Its gRPC transport has no tenant, so callers of an
 * agent other than the default name it with `x-agent-id` metadata.
 */
export async function v03Client(agentBaseUrl: string, transport: Transport, apiKey?: string, grpcAgentId?: string) {
  const fetchImpl = fetchWithKey(apiKey);
  const factory = new V03ClientFactory({
    transports: [
      new V03JsonRpcTransportFactory({ fetchImpl }),
      new V03RestTransportFactory({ fetchImpl }),
      new V03GrpcTransportFactory({
        grpcCallOptions: { interceptors: [withMetadata({ 'x-api-key': apiKey, 'x-agent-id': grpcAgentId })] },
      }),
    ],
    preferredTransports: [transport],
    cardResolver: undefined,
  });
  return factory.createFromUrl(agentBaseUrl.endsWith('/') ? agentBaseUrl : `${agentBaseUrl}/`);
}
