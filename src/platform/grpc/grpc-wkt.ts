/**
 * Our values in the shapes @grpc/proto-loader (keepCase, longs as strings, enums as strings,
 * oneofs) reads and writes for google.protobuf well-known types and for enums, so a v2 adapter
 * is one mapping call per field.
 */

/**
 * google.protobuf.Value as proto-loader writes it (one of the `kind` fields set). proto-loader takes
 * the well-known types from protobufjs's bundled definitions, whose field names are camelCase
 * whatever `keepCase` says.
 */
export type ProtoValue =
  | { nullValue: 'NULL_VALUE' }
  | { numberValue: number }
  | { stringValue: string }
  | { boolValue: boolean }
  | { structValue: ProtoStruct }
  | { listValue: { values: ProtoValue[] } };

export interface ProtoStruct {
  fields: Record<string, ProtoValue>;
}

export interface ProtoTimestamp {
  seconds: string;
  nanos: number;
}

/** Any JSON value as a google.protobuf.Value (undefined, functions and the like as null). */
export function toProtoValue(value: unknown): ProtoValue {
  if (typeof value === 'number' && Number.isFinite(value)) return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(toProtoValue) } };
  if (value !== null && typeof value === 'object') return { structValue: toProtoStruct(value) };
  return { nullValue: 'NULL_VALUE' };
}

/** A JSON object as a google.protobuf.Struct (fields whose value is undefined are left out). */
export function toProtoStruct(object: object): ProtoStruct {
  const fields: Record<string, ProtoValue> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) fields[key] = toProtoValue(value);
  return { fields };
}

/**
 * toProtoStruct for an answer that is written as soon as it is returned: the Struct's `fields` are
 * built only if something reads them (protobufjs does, when the answer is not written by
 * struct-wire.ts, which writes the JSON itself). `object` must not change until then; a frozen
 * `object` must be frozen all the way down (it never changes), and struct-wire.ts keeps its bytes
 * for as long as the object lives.
 */
export function toProtoStructLazy(object: object): ProtoStruct {
  return new LazyStruct(object);
}

/** The JSON a toProtoStructLazy Struct stands for; undefined for any other Struct. */
export function lazyStructJson(struct: ProtoStruct): object | undefined {
  return struct instanceof LazyStruct ? struct.json : undefined;
}

class LazyStruct implements ProtoStruct {
  private built?: Record<string, ProtoValue>;

  constructor(readonly json: object) {}

  get fields(): Record<string, ProtoValue> {
    return (this.built ??= toProtoStruct(this.json).fields);
  }
}

/** An RFC 3339 time (or Date) as a google.protobuf.Timestamp; null/undefined/empty stay unset. */
export function toProtoTimestamp(time: string | Date | null | undefined): ProtoTimestamp | undefined {
  if (time === null || time === undefined || time === '') return undefined;
  const ms = time instanceof Date ? time.getTime() : Date.parse(time);
  if (!Number.isFinite(ms)) return undefined;
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** Whole seconds as a google.protobuf.Duration. */
export function toProtoDuration(seconds: number): { seconds: string; nanos: number } {
  return { seconds: String(Math.trunc(seconds)), nanos: 0 };
}

/** `connected` with prefix AGENT_STATUS → `AGENT_STATUS_CONNECTED` (`in-process` → `IN_PROCESS`). */
export function toProtoEnum(prefix: string, value: string): string {
  return `${prefix}_${value.replace(/-/g, '_').toUpperCase()}`;
}

/**
 * The reverse of toProtoEnum for a closed set: `AUTH_MODE_API_KEY` → `api_key`; the UNSPECIFIED
 * value (or nothing) → undefined; a name outside `values` is returned as it is, for the DTO's
 * validation to refuse by name.
 */
export function fromProtoEnum<T extends string>(
  prefix: string,
  values: readonly T[],
  name: unknown,
): T | string | undefined {
  if (name === undefined || name === null || name === '' || name === `${prefix}_UNSPECIFIED` || name === 0)
    return undefined;
  const known = values.find((value) => toProtoEnum(prefix, value) === name);
  return known ?? (typeof name === 'string' || typeof name === 'number' ? String(name) : JSON.stringify(name));
}

/** A google.protobuf.Value as proto-loader decodes it (`kind` names the field set), as JSON. */
export function fromProtoValue(value: unknown): unknown {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown> & { kind?: string };
  const kind =
    v.kind ?? ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'].find((k) => k in v);
  switch (kind) {
    case 'numberValue':
    case 'stringValue':
    case 'boolValue':
      return v[kind];
    case 'structValue':
      return fromProtoStruct(v.structValue);
    case 'listValue':
      return ((v.listValue as { values?: unknown[] } | null)?.values ?? []).map(fromProtoValue);
    default:
      return null;
  }
}

/** A google.protobuf.Struct as proto-loader decodes it, as a JSON object; unset stays undefined. */
export function fromProtoStruct(struct: unknown): Record<string, unknown> | undefined {
  if (!struct || typeof struct !== 'object') return undefined;
  const fields = (struct as { fields?: Record<string, unknown> }).fields ?? {};
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, fromProtoValue(value)]));
}
