/**
 * The echo agents the benchmark measures: the same echo, answered in the three shapes A2A agents
 * answer in. Each variant has its own ids in the hub and its own base path on an echo server, so
 * one hub and one remote echo server can serve all three side by side.
 */
export const VARIANTS = ['message', 'task', 'task-stream'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface VariantInfo {
  /** What a `message/send` answer is: a Message, or a Task whose artifact holds the echo. */
  answer: 'message' | 'task';
  /** What the card says (`capabilities.streaming`); the hub proxies a streaming agent over SSE. */
  streaming: boolean;
  /** The id it is hosted under in the hub as a local agent. */
  localId: string;
  /** The id the remote echo server's variant is registered under in the hub. */
  remoteId: string;
  /** Its base path on an echo server: card at `<base>/.well-known/agent-card.json`, JSON-RPC at `<base>/v1`. */
  basePath: string;
  /** The agent's name on its cards, in the hub and on the echo server alike. */
  name: string;
  /** How the tables name it. */
  title: string;
}

/**
 * The one word only the remote Task agent's card carries. The orchestrator's requests say it, so
 * its built-in router picks that agent among every echo the hub hosts (they share "echo" and
 * "benchmark"), with full confidence, and the whole text reaches the agent.
 */
export const ORCHESTRATOR_WORD = 'parrot';

/** The variant the orchestrator target is routed to (on the remote echo server). */
export const ORCHESTRATED_VARIANT: Variant = 'task';

export const VARIANT_INFO: Record<Variant, VariantInfo> = {
  message: {
    answer: 'message',
    streaming: false,
    localId: 'echo',
    remoteId: 'remote-echo',
    basePath: '/message',
    name: 'Echo',
    title: 'Message (one Message event)',
  },
  task: {
    answer: 'task',
    streaming: false,
    localId: 'echo-task',
    remoteId: 'remote-echo-task',
    basePath: '/task',
    name: 'Task echo',
    title: 'Task answered at once (one completed task event)',
  },
  'task-stream': {
    answer: 'task',
    streaming: true,
    localId: 'echo-task-stream',
    remoteId: 'remote-echo-task-stream',
    basePath: '/task-stream',
    name: 'Streaming task echo',
    title: 'Task streamed (task, working, artifact, completed)',
  },
};

/** Parses a comma-separated list of names against the allowed ones, keeping the allowed order. */
export function pickList<T extends string>(what: string, raw: string, allowed: readonly T[]): T[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!allowed.includes(name as T)) throw new Error(`unknown ${what} ${name} (any of ${allowed.join(', ')})`);
  }
  if (!names.length) throw new Error(`no ${what} given`);
  return allowed.filter((name) => names.includes(name));
}
