import type { Server, ServiceDefinition } from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';
import type { ProtoStruct } from './grpc-wkt';
import { delimitedHead, encodeStruct } from './struct-wire';

interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName: string;
}

type Serialize = (value: unknown) => Buffer;

const STRUCT = /^\.?google\.protobuf\.Struct$/;

/**
 * Answers whose message has google.protobuf.Struct fields of its own (v2's ListAgentCards: a
 * repeated Struct per card) get those fields written by struct-wire.ts and the rest by
 * proto-loader's serializer as before; a protobuf message may hold its fields in any order, and
 * the bytes of ListAgentCardsResponse are the same as protobufjs's. The fields are read from the
 * method's descriptor, so nothing here repeats the protos. Call once, before services are added;
 * services without proto-loader descriptors (the A2A SDK's) are left as they are.
 */
export function writeStructResponsesFast(server: Server): void {
  const add = server.addService.bind(server);
  server.addService = (service, implementation) => add(withStructWriter(service), implementation);
}

function withStructWriter(service: ServiceDefinition): ServiceDefinition {
  const replaced: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(service)) {
    const responseType = (method as { responseType?: MessageTypeDefinition<object, object> }).responseType;
    const serialize = responseType && structSerializer(responseType, method.responseSerialize as Serialize);
    replaced[name] = serialize ? { ...method, responseSerialize: serialize } : method;
  }
  return replaced as ServiceDefinition;
}

/** A serializer writing `type`'s own Struct fields itself, or undefined if it has none. */
export function structSerializer(
  type: MessageTypeDefinition<object, object>,
  serialize: Serialize,
): Serialize | undefined {
  const fields = ((type.type as { field?: FieldDescriptor[] }).field ?? []).filter(
    (field) => field.type === 'TYPE_MESSAGE' && STRUCT.test(field.typeName),
  );
  if (fields.length === 0) return undefined;
  return (value) => {
    const message = (value ?? {}) as Record<string, unknown>;
    const rest: Record<string, unknown> = { ...message };
    const parts: Buffer[] = [];
    for (const field of fields) {
      const given = message[field.name];
      if (given === undefined || given === null) continue;
      const structs = (field.label === 'LABEL_REPEATED' ? given : [given]) as ProtoStruct[];
      if (!Array.isArray(structs)) return serialize(value);
      for (const struct of structs) {
        const bytes = encodeStruct(struct);
        if (!bytes) return serialize(value);
        parts.push(delimitedHead(field.number, bytes.length), bytes);
      }
      delete rest[field.name];
    }
    return Buffer.concat([serialize(rest), ...parts]);
  };
}
