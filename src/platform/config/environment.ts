import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Accepts true/false/1/0/yes/no (any case); anything else is left for @IsBoolean to reject. */
function EnvBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const v = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    return value;
  });
}

/** Integers only: "10", not "10.5" or "ten". */
function EnvInt(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value));
}

/** Empty strings mean "unset", so `FOO=` in a .env file behaves like no FOO at all. */
function EmptyAsUnset(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : value));
}

/**
 * Every environment variable Switchboard reads, with its default. The README's configuration
 * table documents the same list; keep them together.
 */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @IsOptional()
  @IsString()
  @MinLength(1)
  HOST = '0.0.0.0';

  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8080;

  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  GRPC_PORT = 50051;

  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /** At least 2: migrations hold a lock on one connection while running on another. */
  @EnvInt()
  @IsInt()
  @Min(2)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  @EnvBoolean()
  @IsBoolean()
  DATABASE_MIGRATIONS_RUN = true;

  /**
   * How long rows written behind the answers (task index, routing log, deliveries) wait to be
   * batched. Each statement has a fixed cost (about 0.6 ms of the embedded database's CPU, and
   * PostgreSQL's commit) that a short wait leaves to every answer when requests come one at a
   * time: at 5 ms, a lone client's Task answers cost the hub twice the CPU (bench/a2a-send).
   */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(10_000)
  WRITE_BEHIND_DELAY_MS = 50;

  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsString()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1-64 of A-Z a-z 0-9 : _ . -' })
  REDIS_KEY_PREFIX = 'switchboard:';

  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @MinLength(24)
  @MaxLength(256)
  @Matches(/^\S+$/, { message: 'ADMIN_API_KEY must not contain whitespace' })
  ADMIN_API_KEY?: string;

  @EnvInt()
  @IsInt()
  @Min(1)
  RATE_LIMIT_REGISTRY_PER_MIN = 10;

  @EnvInt()
  @IsInt()
  @Min(1)
  RATE_LIMIT_CONVERSATION_PER_MIN = 60;

  /** Task-tree API calls (POST /tasks, the task gRPC service) per API key per minute. */
  @EnvInt()
  @IsInt()
  @Min(1)
  RATE_LIMIT_TASKS_PER_MIN = 600;

  @EnvBoolean()
  @IsBoolean()
  RATE_LIMIT_FAIL_OPEN = false;

  @EnvInt()
  @IsInt()
  @Min(1024)
  @Max(64 * 1024 * 1024)
  MAX_BODY_BYTES = 1024 * 1024;

  /** Deepest nesting of arrays and objects accepted in a JSON body, gRPC Struct or WebSocket frame. */
  @EnvInt()
  @IsInt()
  @Min(8)
  @Max(1_000)
  JSON_MAX_DEPTH = 64;

  /** Most elements in one JSON array, or members in one object. */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(10_000_000)
  JSON_MAX_ITEMS = 10_000;

  /** Longest JSON string, in bytes as sent (an inline file's base64 counts). */
  @EnvInt()
  @IsInt()
  @Min(1_024)
  @Max(64 * 1024 * 1024)
  JSON_MAX_STRING_BYTES = 512 * 1024;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 25_000;

  /** A second HTTP listener serving only GET /metrics, without a key, for Prometheus (0: none). */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 0;

  /** The hub's external base URL for agent cards; unset: taken from each request's Host. */
  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'PUBLIC_URL must be an http(s) URL' })
  PUBLIC_URL?: string;

  /** host:port advertised for gRPC in agent cards; unset: the request's host and GRPC_PORT. */
  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^[^\s/:]+:\d{1,5}$/, { message: 'PUBLIC_GRPC_ADDRESS must be host:port' })
  PUBLIC_GRPC_ADDRESS?: string;

  /** Honour X-Forwarded-Proto/Host when deriving card URLs (set behind a reverse proxy). */
  @EnvBoolean()
  @IsBoolean()
  TRUST_PROXY = false;

  /**
   * How long A2A task records live in the key-value store (a finished task's 10 s in the in-process
   * store, see TaskStores); finished tasks stay readable from Postgres.
   */
  @EnvInt()
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  A2A_TASK_TTL_SECONDS = 86_400;

  /** Days archived A2A tasks are kept after their last update; 0 keeps them forever. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(36_500)
  A2A_TASK_RETENTION_DAYS = 90;

  /** Days routing decisions are kept; 0 keeps them forever. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(36_500)
  ROUTING_LOG_RETENTION_DAYS = 30;

  /** Days finished task trees (and their tasks) are kept after they end; 0 keeps them forever. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(36_500)
  TASK_TREE_RETENTION_DAYS = 30;

  /** Days push-notification delivery records are kept; 0 keeps them forever. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(36_500)
  PUSH_DELIVERY_RETENTION_DAYS = 7;

  /** Seconds between pruning runs (one replica at a time); 0 turns pruning off. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(604_800)
  RETENTION_INTERVAL_SECONDS = 3_600;

  /** May the hub call private-network and loopback addresses? auto: yes on the embedded defaults, no with DATABASE_URL. */
  @IsIn(['auto', 'true', 'false'])
  ALLOW_PRIVATE_NETWORK_TARGETS: 'auto' | 'true' | 'false' = 'auto';

  /** Timeout for calls the hub makes (agent cards, remote agents, webhooks). */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(600_000)
  OUTBOUND_TIMEOUT_MS = 10_000;

  /** Largest answer the hub reads whole from a call it makes (a remote agent's reply, a task tree's HTTP step); larger ones fail. */
  @EnvInt()
  @IsInt()
  @Min(1_024)
  @Max(1_073_741_824)
  OUTBOUND_MAX_RESPONSE_BYTES = 16_777_216;

  /** How long a remote agent may take to start answering a request the hub relays to it. */
  @EnvInt()
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  REMOTE_AGENT_TIMEOUT_MS = 120_000;

  /** Seconds between health checks of remote agents; 0 turns them off. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(86_400)
  AGENT_HEALTH_CHECK_INTERVAL_SECONDS = 60;

  /** Chat-completions model for the LLM router; unset: the built-in router (no LLM). */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  ROUTER_MODEL?: string;

  /** Base URL of an OpenAI-compatible API (…/v1) for the LLM router. */
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'ROUTER_BASE_URL must be an http(s) URL' })
  ROUTER_BASE_URL = 'https://api.openai.com/v1';

  /** Bearer token for ROUTER_BASE_URL. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  ROUTER_API_KEY?: string;

  /** When the LLM router fails twice: `default` routes with the built-in router, `error` answers ROUTER_FAILURE. */
  @IsIn(['default', 'error'])
  ROUTER_FALLBACK: 'default' | 'error' = 'default';

  /** Timeout of one LLM router call. */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(300_000)
  ROUTER_TIMEOUT_MS = 10_000;

  /**
   * The built-in router also matches requests to cards by meaning, with the sentence-embedding
   * model shipped in the npm package (loaded at boot, no network). Off: card words only.
   */
  @EnvBoolean()
  @IsBoolean()
  ROUTER_EMBEDDINGS = true;

  /** Let the orchestrator send a multi-intent request to several agents at once. */
  @EnvBoolean()
  @IsBoolean()
  ENABLE_MULTI_AGENT_COORDINATION = true;

  /** At most this many agents run at the same time for one request. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(32)
  MAX_PARALLEL_AGENTS = 3;

  /** Below this routing confidence (0..1) the orchestrator asks which agent is meant. */
  @Transform(({ value }) => (typeof value === 'string' && /^\d*\.?\d+$/.test(value.trim()) ? Number(value) : value))
  @IsNumber()
  @Min(0)
  @Max(1)
  ROUTING_CONFIDENCE_THRESHOLD = 0.7;

  /** Keep each conversation's context (previous agent, agent threads, history) across turns. */
  @EnvBoolean()
  @IsBoolean()
  ENABLE_CONTEXT_PRESERVATION = true;

  /** Turns of history kept per conversation. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(200)
  MAX_CONVERSATION_HISTORY = 10;

  /** How long one agent may take to answer the orchestrator before it is cancelled. */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  AGENT_TIMEOUT_MS = 30_000;

  /** How long a conversation's context is kept after its last turn. */
  @EnvInt()
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  CONVERSATION_TTL_SECONDS = 86_400;

  /** Task-tree tasks one replica runs at once, per tree. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(1_000)
  TASK_CONCURRENCY = 10;

  /** Task-tree executions one replica drives at once. */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(1_000)
  TASK_MAX_TREES_PER_REPLICA = 16;

  /** How long a replica's claim on an execution lasts without a heartbeat (renewed every third of it). */
  @EnvInt()
  @IsInt()
  @Min(300)
  @Max(3_600_000)
  TASK_LEASE_MS = 30_000;

  /** How often each replica looks for executions to take over (expired or released leases). */
  @EnvInt()
  @IsInt()
  @Min(50)
  @Max(600_000)
  TASK_POLL_INTERVAL_MS = 1_000;

  /** The shop's name in /.well-known/agents.json. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  COMMERCE_SITE_NAME = 'Switchboard Shop';

  /** The shop's description in /.well-known/agents.json. */
  @IsString()
  @MaxLength(2_000)
  COMMERCE_SITE_DESCRIPTION = 'A shop AI agents can browse and fill a cart in; a human confirms the order.';

  /** Requests per minute per client on the agents.json API (declared in the manifest). */
  @EnvInt()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  COMMERCE_RATE_LIMIT_PER_MIN = 120;

  /** How long a shopping session (and its cart and checkout link) lives. */
  @EnvInt()
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  COMMERCE_SESSION_TTL_SECONDS = 3_600;

  /** How long a replica reuses a search's answer (0: never); an import shows in search within it. */
  @EnvInt()
  @IsInt()
  @Min(0)
  @Max(3_600)
  COMMERCE_SEARCH_CACHE_SECONDS = 10;

  /** How long an MCP tool waits for an agent's answer (send_message) before "Request failed: timeout". */
  @EnvInt()
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  MCP_REQUEST_TIMEOUT_MS = 60_000;

  /** An MCP session (Streamable HTTP at /mcp) unused this long is closed. */
  @EnvInt()
  @IsInt()
  @Min(10)
  @Max(86_400)
  MCP_SESSION_IDLE_SECONDS = 1_800;

  /** How long a console sign-in lasts (minutes); signing out or revoking the key ends it sooner. */
  @EnvInt()
  @IsInt()
  @Min(5)
  @Max(30 * 1_440)
  CONSOLE_SESSION_TTL_MINUTES = 720;

  /** Where the built console is served from; unset: console/dist in the repository. For tests and ops. */
  @EmptyAsUnset()
  @IsOptional()
  @IsString()
  CONSOLE_DIST_DIR?: string;

  /** Base64 of 32 random bytes; encrypts stored secrets. Unset: a key file in DATA_DIR. */
  @EmptyAsUnset()
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'SECRETS_KEY must be 32 bytes in base64 (44 characters)' })
  SECRETS_KEY?: string;
}

/** Names of the variables that failed, with the rule each broke. Values are never included. */
export class ConfigurationError extends Error {
  constructor(readonly problems: { variable: string; rules: string[] }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} (${p.rules.join('; ')})`).join(', ')}`);
    this.name = 'ConfigurationError';
  }
}

/** The names of all variables Switchboard reads (those without a default included). */
export const ENVIRONMENT_VARIABLES: readonly string[] = [
  ...new Set([
    ...Object.keys(new EnvironmentVariables()),
    'DATABASE_URL',
    'REDIS_URL',
    'ADMIN_API_KEY',
    'PUBLIC_URL',
    'PUBLIC_GRPC_ADDRESS',
    'SECRETS_KEY',
    'ROUTER_MODEL',
    'ROUTER_API_KEY',
  ]),
];

/** Validates and types the raw environment. Used by ConfigModule at boot and by the CLIs. */
export function validateEnvironment(raw: Record<string, unknown>): EnvironmentVariables {
  const relevant: Record<string, unknown> = {};
  for (const name of ENVIRONMENT_VARIABLES) {
    if (raw[name] !== undefined) relevant[name] = raw[name];
  }
  const env = plainToInstance(EnvironmentVariables, relevant, { exposeDefaultValues: true });
  const problems = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: true }).map(describe);
  if (env.DATABASE_URL && !env.SECRETS_KEY && !problems.some((p) => p.variable === 'SECRETS_KEY')) {
    // Replicas sharing a database must share the key its stored credentials are sealed with.
    problems.push({
      variable: 'SECRETS_KEY',
      rules: ['required when DATABASE_URL is set; make one with `openssl rand -base64 32`'],
    });
  }
  if (problems.length > 0) throw new ConfigurationError(problems);
  return env;
}

function describe(error: ValidationError): { variable: string; rules: string[] } {
  // class-validator messages are built from "$property" and the constraint, never "$value".
  return { variable: error.property, rules: Object.values(error.constraints ?? {}) };
}
