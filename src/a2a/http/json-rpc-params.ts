/** What each A2A JSON-RPC method's params must hold before the SDK sees them. */
interface ParamRules {
  /** Dotted paths that must be non-empty strings. */
  ids?: string[];
  /** Dotted paths that, when present, must be strings. */
  strings?: string[];
  /** Dotted paths that must be objects. */
  objects?: string[];
  /** Dotted paths that, when present, must be whole numbers >= 0. */
  counts?: string[];
}

const SEND: ParamRules = { objects: ['message'], strings: ['message.contextId', 'message.taskId'] };

const RULES: Record<string, ParamRules> = {
  // A2A v0.3
  'message/send': SEND,
  'message/stream': SEND,
  'tasks/get': { ids: ['id'], counts: ['historyLength'] },
  'tasks/cancel': { ids: ['id'] },
  'tasks/resubscribe': { ids: ['id'] },
  'tasks/pushNotificationConfig/set': {
    ids: ['taskId', 'pushNotificationConfig.url'],
    objects: ['pushNotificationConfig'],
  },
  'tasks/pushNotificationConfig/get': { ids: ['id'], strings: ['pushNotificationConfigId'] },
  'tasks/pushNotificationConfig/list': { ids: ['id'] },
  'tasks/pushNotificationConfig/delete': { ids: ['id', 'pushNotificationConfigId'] },
  // A2A v1.0
  SendMessage: SEND,
  SendStreamingMessage: SEND,
  GetTask: { ids: ['id'], counts: ['historyLength'] },
  CancelTask: { ids: ['id'] },
  SubscribeToTask: { ids: ['id'] },
  ListTasks: { strings: ['contextId', 'pageToken'], counts: ['pageSize', 'historyLength'] },
  CreateTaskPushNotificationConfig: { ids: ['taskId', 'url'] },
  GetTaskPushNotificationConfig: { ids: ['taskId', 'id'] },
  ListTaskPushNotificationConfigs: { ids: ['taskId'], strings: ['pageToken'], counts: ['pageSize'] },
  DeleteTaskPushNotificationConfig: { ids: ['taskId', 'id'] },
};

/**
 * The first problem with a request's params, or undefined. The SDK trusts the types of ids and
 * answers a number where a task id belongs with an internal error; this answers -32602 first.
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  const rules = RULES[method];
  if (!rules) return undefined;
  const root = params === undefined ? {} : params;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return 'params must be an object';
  for (const path of rules.objects ?? []) {
    const value = at(root, path);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return `${path} must be an object`;
  }
  for (const path of rules.ids ?? []) {
    const value = at(root, path);
    if (typeof value !== 'string' || value.trim() === '') return `${path} must be a non-empty string`;
  }
  for (const path of rules.strings ?? []) {
    const value = at(root, path);
    if (value !== undefined && value !== null && typeof value !== 'string') return `${path} must be a string`;
  }
  for (const path of rules.counts ?? []) {
    const value = at(root, path);
    if (value !== undefined && value !== null && !(Number.isInteger(value) && (value as number) >= 0)) {
      return `${path} must be a whole number`;
    }
  }
  return undefined;
}

function at(root: object, path: string): unknown {
  let value: unknown = root;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
