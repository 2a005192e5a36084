import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { join } from 'node:path';
import { PROTO_DIR } from '../../src/paths';

const LOADER = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

export type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, response: Res) => void,
) => void;

export interface SystemClient extends grpc.Client {
  GetInfo: Unary<object, Record<string, unknown>>;
}

/** A client of one of our services (`proto/switchboard/v1/<file>`), typed by the caller. */
export function switchboardClient<T extends grpc.Client>(
  file: 'system' | 'registry' | 'tasks',
  service: 'SystemService' | 'RegistryService' | 'TaskService',
  address: string,
): T {
  const definition = protoLoader.loadSync(join(PROTO_DIR, `switchboard/v1/${file}.proto`), LOADER);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    switchboard: { v1: Record<string, new (address: string, credentials: grpc.ChannelCredentials) => T> };
  };
  return new pkg.switchboard.v1[service](address, grpc.credentials.createInsecure());
}

export function systemClient(address: string): SystemClient {
  return switchboardClient<SystemClient>('system', 'SystemService', address);
}

export function healthClient(address: string): grpc.Client & { Check: Unary<{ service: string }, { status: string }> } {
  const definition = protoLoader.loadSync(healthProtoPath, LOADER);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { health: { v1: { Health: new (address: string, credentials: grpc.ChannelCredentials) => never } } };
  };
  return new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
}

/** Calls a unary method and resolves with the response or the ServiceError (never rejects). */
export function call<Req, Res>(
  method: Unary<Req, Res>,
  client: grpc.Client,
  request: Req,
  headers: Record<string, string> = {},
): Promise<{ response?: Res; error?: grpc.ServiceError }> {
  const metadata = new grpc.Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
  return new Promise((resolve) => {
    method.call(client, request, metadata, (error, response) => resolve(error ? { error } : { response }));
  });
}

interface ReflectionReply {
  list_services_response?: { service: { name: string }[] };
}
type ReflectionClient = grpc.Client & { ServerReflectionInfo(): grpc.ClientDuplexStream<object, ReflectionReply> };

/** Names of the services the server lists through gRPC server reflection (v1). */
export async function reflectedServices(address: string): Promise<string[]> {
  const reflectionProto = join(require.resolve('@grpc/reflection'), '../../proto/grpc/reflection/v1/reflection.proto');
  const definition = protoLoader.loadSync(reflectionProto, LOADER);
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: { reflection: { v1: { ServerReflection: new (a: string, c: grpc.ChannelCredentials) => ReflectionClient } } };
  };
  const client = new pkg.grpc.reflection.v1.ServerReflection(address, grpc.credentials.createInsecure());
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const stream = client.ServerReflectionInfo();
      stream.on('data', (reply: ReflectionReply) => {
        resolve((reply.list_services_response?.service ?? []).map((s) => s.name));
        stream.end();
      });
      stream.on('error', reject);
      stream.write({ list_services: '' });
    });
  } finally {
    client.close();
  }
}

/** Sends raw bytes to a method path, as a misbehaving client would; resolves with the error. */
export async function rawUnaryError(address: string, path: string, payload: Buffer): Promise<grpc.ServiceError | null> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve) =>
      client.makeUnaryRequest(
        path,
        (x: Buffer) => x,
        (x: Buffer) => x,
        payload,
        new grpc.Metadata(),
        (error) => resolve(error),
      ),
    );
  } finally {
    client.close();
  }
}
