/**
 * The shapes of A2A request params and bodies, checked before the SDK reads them: the SDK trusts
 * the JSON it is given (a `null` part, `acceptedOutputModes: {}` or a number where an id belongs
 * become an internal error, and wrong types are silently coerced), so every entry point answers
 * a wrong shape itself, naming the field (`message.parts[0] must be an object`), with the A2A
 * error for invalid params. Members the shapes do not name are left alone.
 *
 * Names: ProtoJSON - v1.0 on both bindings, v0.3 over HTTP+JSON - accepts a member under its
 * proto field name (`task_id`) where its JSON name (`taskId`) is absent, so with `protoJson`
 * a member is looked up under both, as the SDK's parsers read it. v0.3 JSON-RPC is plain JSON:
 * JSON names only. `null` is an absent member (ProtoJSON, and the v0.3 SDK reads it so).
 */
export interface Shape {
  /** What a value must be, as the end of a sentence: "a string", "an object". */
  readonly expected: string;
  /** The problem with a present (not null) value at `field`, or undefined. */
  check(value: unknown, field: string, protoJson: boolean): string | undefined;
}

/** A member the request cannot do without. */
class Required {
  constructor(readonly shape: Shape) {}
}

type Member = Shape | Required;

export function required(shape: Shape): Required {
  return new Required(shape);
}

const must = (field: string, expected: string) => `${field} must be ${expected}`;

function simple(expected: string, valid: (value: unknown, protoJson: boolean) => boolean): Shape {
  return {
    expected,
    check: (value, field, protoJson) => (valid(value, protoJson) ? undefined : must(field, expected)),
  };
}

export const text = simple('a string', (value) => typeof value === 'string');

/** An id: a string with something in it. */
export const id = simple('a non-empty string', (value) => typeof value === 'string' && value.trim() !== '');

/** A whole number >= 0 (ProtoJSON also writes integers as decimal strings). */
export const count = simple(
  'a whole number, 0 or more',
  (value, protoJson) =>
    (Number.isSafeInteger(value) && (value as number) >= 0) ||
    (protoJson && typeof value === 'string' && /^\d{1,15}$/.test(value)),
);

export const flag = simple('a boolean', (value) => typeof value === 'boolean');

/** A JSON object (metadata, a data part's data: google.protobuf.Struct). */
export const struct = simple('an object', isPlainObject);

/** Bytes in ProtoJSON: base64, standard or URL-safe, padded or not. */
export const bytes = simple(
  'base64 text',
  (value) => typeof value === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(value),
);

/** Any JSON value (a v1.0 data part's google.protobuf.Value). */
export const anyJson: Shape = { expected: 'a JSON value', check: () => undefined };

/** A protobuf enum: its name, or (ProtoJSON) its number; the SDK judges the value. */
export const enumValue = simple(
  'an enum name or number',
  (value, protoJson) => typeof value === 'string' || (protoJson && Number.isInteger(value)),
);

export function oneOf(...values: (string | number)[]): Shape {
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return simple(expected, (value) => values.includes(value as string | number));
}

/** An array whose every item has `item`'s shape (a null item is a wrong item, not an absent one). */
export function list(item: Shape): Shape {
  return {
    expected: 'an array',
    check(value, field, protoJson) {
      if (!Array.isArray(value)) return must(field, 'an array');
      for (let i = 0; i < value.length; i++) {
        const entry: unknown = value[i];
        const at = `${field}[${i}]`;
        const problem =
          entry === null || entry === undefined ? must(at, item.expected) : item.check(entry, at, protoJson);
        if (problem) return problem;
      }
      return undefined;
    },
  };
}

/**
 * An object with these members (each checked when present; a Required one must be), then `rule`
 * on the whole (which members go together), given how each member was looked up.
 */
export function object(
  members: Record<string, Member>,
  rule?: (found: Found, field: string) => string | undefined,
): Shape {
  return {
    expected: 'an object',
    check(value, field, protoJson) {
      if (!isPlainObject(value)) return must(field, 'an object');
      const found = new Found(value, protoJson);
      for (const [name, member] of Object.entries(members)) {
        const shape = member instanceof Required ? member.shape : member;
        const entry = found.get(name);
        const at = join(field, entry?.name ?? name);
        if (!entry) {
          if (member instanceof Required) return must(at, shape.expected);
          continue;
        }
        const problem = shape.check(entry.value, at, protoJson);
        if (problem) return problem;
      }
      return rule?.(found, field);
    },
  };
}

/** A rule for `object`: exactly one of these members (a protobuf oneof). */
export function exactlyOne(...names: string[]): (found: Found, field: string) => string | undefined {
  const listed = names.length === 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return (found, field) => {
    const present = names.filter((name) => found.get(name));
    if (present.length === 1) return undefined;
    const subject = field || 'the object';
    return present.length === 0 ? `${subject} must have ${listed}` : `${subject} must have only one of ${listed}`;
  };
}

/** The members of an object, by JSON name, falling back (ProtoJSON) to the proto field name. */
export class Found {
  constructor(
    private readonly value: Record<string, unknown>,
    private readonly protoJson: boolean,
  ) {}

  /** The member and the name it was found under; undefined when absent or null. */
  get(name: string): { name: string; value: unknown } | undefined {
    const direct = this.value[name];
    if (direct !== undefined && direct !== null) return { name, value: direct };
    if (!this.protoJson) return undefined;
    const protoName = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (protoName === name) return undefined;
    const proto = this.value[protoName];
    return proto !== undefined && proto !== null ? { name: protoName, value: proto } : undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(field: string, name: string): string {
  return field ? `${field}.${name}` : name;
}

// ---- A2A v0.3, JSON-RPC (plain JSON) ----

const v03FileContent = object({ uri: text, bytes: text, name: text, mimeType: text }, exactlyOne('bytes', 'uri'));

const V03_PARTS: Record<string, Shape> = {
  text: object({ text: required(text), metadata: struct }),
  file: object({ file: required(v03FileContent), metadata: struct }),
  // The v0.3 schema says an object; any JSON value is taken, as v1.0 takes it (and the workflow
  // agent is sent its task list as an array).
  data: object({ data: required(anyJson), metadata: struct }),
};

const V03_PART_KIND = oneOf(...Object.keys(V03_PARTS));

/** A v0.3 part: its members depend on its kind. */
const v03Part: Shape = {
  expected: 'an object',
  check(value, field, protoJson) {
    if (!isPlainObject(value)) return must(field, 'an object');
    const shape =
      typeof value.kind === 'string' && Object.hasOwn(V03_PARTS, value.kind) ? V03_PARTS[value.kind] : undefined;
    if (!shape) return must(`${field}.kind`, V03_PART_KIND.expected);
    return shape.check(value, field, protoJson);
  },
};

const v03Message = object({
  messageId: required(id),
  role: required(oneOf('user', 'agent')),
  parts: required(list(v03Part)),
  contextId: text,
  taskId: text,
  metadata: struct,
  extensions: list(text),
  referenceTaskIds: list(text),
});

/** A v0.3 push notification config: the same in JSON-RPC and HTTP+JSON. */
const v03PushConfig = object({
  id: text,
  url: required(id),
  token: text,
  authentication: object({ schemes: list(text), credentials: text }),
});

const v03Send = object({
  message: required(v03Message),
  configuration: object({
    acceptedOutputModes: list(text),
    historyLength: count,
    blocking: flag,
    pushNotificationConfig: v03PushConfig,
  }),
  metadata: struct,
});

/** The params of each v0.3 JSON-RPC method. */
export const V03_JSON_RPC_PARAMS: Record<string, Shape> = {
  'message/send': v03Send,
  'message/stream': v03Send,
  'tasks/get': object({ id: required(id), historyLength: count, metadata: struct }),
  'tasks/cancel': object({ id: required(id), metadata: struct }),
  'tasks/resubscribe': object({ id: required(id), metadata: struct }),
  'tasks/pushNotificationConfig/set': object({
    taskId: required(id),
    pushNotificationConfig: required(v03PushConfig),
  }),
  'tasks/pushNotificationConfig/get': object({ id: required(id), pushNotificationConfigId: text, metadata: struct }),
  'tasks/pushNotificationConfig/list': object({ id: required(id), metadata: struct }),
  'tasks/pushNotificationConfig/delete': object({
    id: required(id),
    pushNotificationConfigId: required(id),
    metadata: struct,
  }),
};

// ---- A2A v1.0 (ProtoJSON of lf.a2a.v1), JSON-RPC params and HTTP+JSON bodies alike ----

const v1Part = object(
  { text, raw: bytes, url: text, data: anyJson, metadata: struct, filename: text, mediaType: text },
  exactlyOne('text', 'raw', 'url', 'data'),
);

const v1Message = object({
  messageId: required(id),
  role: required(oneOf('ROLE_USER', 'ROLE_AGENT', 1, 2)),
  parts: required(list(v1Part)),
  contextId: text,
  taskId: text,
  metadata: struct,
  extensions: list(text),
  referenceTaskIds: list(text),
});

const v1PushConfigMembers = {
  tenant: text,
  id: text,
  url: required(id),
  token: text,
  authentication: object({ scheme: text, credentials: text }),
};

/** A push notification config where the task is given elsewhere (the message, the path). */
const v1PushConfig = object({ ...v1PushConfigMembers, taskId: text });

export const V1_SEND = object({
  tenant: text,
  message: required(v1Message),
  configuration: object({
    acceptedOutputModes: list(text),
    taskPushNotificationConfig: v1PushConfig,
    historyLength: count,
    returnImmediately: flag,
  }),
  metadata: struct,
});

/** The body of HTTP+JSON v1.0 `POST tasks/{id}/pushNotificationConfigs` (the task is in the path). */
export const V1_PUSH_CONFIG_BODY = v1PushConfig;

/** The params of each v1.0 JSON-RPC method. */
export const V1_JSON_RPC_PARAMS: Record<string, Shape> = {
  SendMessage: V1_SEND,
  SendStreamingMessage: V1_SEND,
  GetTask: object({ tenant: text, id: required(id), historyLength: count }),
  ListTasks: object({
    tenant: text,
    contextId: text,
    status: enumValue,
    pageSize: count,
    pageToken: text,
    historyLength: count,
    statusTimestampAfter: text,
    includeArtifacts: flag,
  }),
  CancelTask: object({ tenant: text, id: required(id), metadata: struct }),
  SubscribeToTask: object({ tenant: text, id: required(id) }),
  CreateTaskPushNotificationConfig: object({ ...v1PushConfigMembers, taskId: required(id) }),
  GetTaskPushNotificationConfig: object({ tenant: text, taskId: required(id), id: required(id) }),
  ListTaskPushNotificationConfigs: object({ tenant: text, taskId: required(id), pageSize: count, pageToken: text }),
  DeleteTaskPushNotificationConfig: object({ tenant: text, taskId: required(id), id: required(id) }),
  GetExtendedAgentCard: object({ tenant: text }),
};

// ---- A2A v0.3, HTTP+JSON (ProtoJSON of the v0.3 a2a.proto) ----

const v03RestPart = object(
  {
    text,
    file: object(
      { fileWithUri: text, fileWithBytes: bytes, mimeType: text },
      exactlyOne('fileWithUri', 'fileWithBytes'),
    ),
    data: object({ data: required(struct) }),
  },
  exactlyOne('text', 'file', 'data'),
);

const v03RestMessage = object({
  messageId: required(id),
  role: required(oneOf('ROLE_USER', 'ROLE_AGENT', 1, 2)),
  content: required(list(v03RestPart)),
  contextId: text,
  taskId: text,
  metadata: struct,
  extensions: list(text),
});

/** The body of HTTP+JSON v0.3 `POST /v1/message:send|stream` (the message is `message`, or `request`). */
export const V03_REST_SEND = object(
  {
    message: v03RestMessage,
    request: v03RestMessage,
    configuration: object({
      acceptedOutputModes: list(text),
      pushNotification: v03PushConfig,
      historyLength: count,
      blocking: flag,
    }),
    metadata: struct,
  },
  (found) => (found.get('message') || found.get('request') ? undefined : must('message', 'an object')),
);

/** The body of HTTP+JSON v0.3 `POST /v1/tasks/{id}/pushNotificationConfigs`. */
export const V03_REST_PUSH_CONFIG_BODY = object({
  name: required(id),
  pushNotificationConfig: required(v03PushConfig),
});
