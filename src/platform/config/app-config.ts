import { isAbsolute, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../paths';
import { EnvironmentVariables, LogLevel } from './environment';

/** What a JSON document may hold, checked before it is parsed (see platform/http/json-limits). */
export interface JsonLimits {
  maxDepth: number;
  maxItems: number;
  maxStringBytes: number;
}

/**
 * The typed configuration every module injects. Built once from the validated environment;
 * nothing else in the code base reads process.env.
 */
export class AppConfig {
  readonly env: EnvironmentVariables['NODE_ENV'];
  readonly http: { host: string; port: number; maxBodyBytes: number; json: JsonLimits };
  readonly grpc: { host: string; port: number };
  /** The unauthenticated /metrics listener's port; 0: none. */
  readonly metricsPort: number;
  readonly database:
    | { mode: 'external'; url: string; poolSize: number; migrationsRun: boolean; writeBehindDelayMs: number }
    | { mode: 'embedded'; dataDir: string; poolSize: number; migrationsRun: boolean; writeBehindDelayMs: number };
  readonly redis: { mode: 'redis'; url: string; keyPrefix: string } | { mode: 'in-process'; keyPrefix: string };
  readonly auth: { adminApiKey?: string };
  readonly rateLimit: {
    registryPerMinute: number;
    conversationPerMinute: number;
    tasksPerMinute: number;
    failOpen: boolean;
  };
  readonly log: { level: LogLevel };
  readonly shutdownTimeoutMs: number;
  readonly dataDir: string;
  readonly publicEndpoints: { url?: string; grpcAddress?: string; trustProxy: boolean };
  readonly a2a: { taskTtlSeconds: number };
  /** Days each kind of record is kept (0: forever), and how often they are pruned (0: never). */
  readonly retention: {
    a2aTaskDays: number;
    routingLogDays: number;
    taskTreeDays: number;
    pushDeliveryDays: number;
    intervalSeconds: number;
  };
  readonly outbound: { allowPrivateNetworks: boolean; timeoutMs: number; maxResponseBytes: number };
  readonly registry: { healthCheckIntervalSeconds: number; remoteAgentTimeoutMs: number };
  readonly secretsKey?: string;
  readonly tasks: { concurrency: number; maxTreesPerReplica: number; leaseMs: number; pollIntervalMs: number };
  /** The operator console: how long a sign-in lasts, and where its built files are. */
  readonly console: { sessionTtlMinutes: number; distDir: string };
  readonly mcp: {
    requestTimeoutMs: number;
    sessionIdleSeconds: number;
  };
  readonly commerce: {
    siteName: string;
    siteDescription: string;
    rateLimitPerMinute: number;
    sessionTtlSeconds: number;
    searchCacheSeconds: number;
  };
  readonly orchestration: {
    router: {
      model?: string;
      baseUrl: string;
      apiKey?: string;
      fallback: 'default' | 'error';
      timeoutMs: number;
      /** The built-in router matches by meaning too (SentenceEncoder). */
      embeddings: boolean;
    };
    multiAgent: boolean;
    maxParallelAgents: number;
    confidenceThreshold: number;
    preserveContext: boolean;
    maxHistory: number;
    agentTimeoutMs: number;
    contextTtlSeconds: number;
  };

  constructor(env: EnvironmentVariables) {
    this.env = env.NODE_ENV;
    this.dataDir = isAbsolute(env.DATA_DIR) ? env.DATA_DIR : resolve(process.cwd(), env.DATA_DIR);
    this.http = {
      host: env.HOST,
      port: env.PORT,
      maxBodyBytes: env.MAX_BODY_BYTES,
      json: { maxDepth: env.JSON_MAX_DEPTH, maxItems: env.JSON_MAX_ITEMS, maxStringBytes: env.JSON_MAX_STRING_BYTES },
    };
    this.grpc = { host: env.HOST, port: env.GRPC_PORT };
    this.metricsPort = env.METRICS_PORT;
    const common = {
      poolSize: env.DATABASE_POOL_SIZE,
      migrationsRun: env.DATABASE_MIGRATIONS_RUN,
      writeBehindDelayMs: env.WRITE_BEHIND_DELAY_MS,
    };
    this.database = env.DATABASE_URL
      ? { mode: 'external', url: env.DATABASE_URL, ...common }
      : { mode: 'embedded', dataDir: this.dataDir, ...common };
    this.redis = env.REDIS_URL
      ? { mode: 'redis', url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX }
      : { mode: 'in-process', keyPrefix: env.REDIS_KEY_PREFIX };
    this.auth = { adminApiKey: env.ADMIN_API_KEY };
    this.rateLimit = {
      registryPerMinute: env.RATE_LIMIT_REGISTRY_PER_MIN,
      conversationPerMinute: env.RATE_LIMIT_CONVERSATION_PER_MIN,
      tasksPerMinute: env.RATE_LIMIT_TASKS_PER_MIN,
      failOpen: env.RATE_LIMIT_FAIL_OPEN,
    };
    this.log = { level: env.LOG_LEVEL };
    this.shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS;
    this.publicEndpoints = {
      url: env.PUBLIC_URL?.replace(/\/+$/, ''),
      grpcAddress: env.PUBLIC_GRPC_ADDRESS,
      trustProxy: env.TRUST_PROXY,
    };
    this.a2a = { taskTtlSeconds: env.A2A_TASK_TTL_SECONDS };
    this.retention = {
      a2aTaskDays: env.A2A_TASK_RETENTION_DAYS,
      routingLogDays: env.ROUTING_LOG_RETENTION_DAYS,
      taskTreeDays: env.TASK_TREE_RETENTION_DAYS,
      pushDeliveryDays: env.PUSH_DELIVERY_RETENTION_DAYS,
      intervalSeconds: env.RETENTION_INTERVAL_SECONDS,
    };
    const allowPrivate = env.ALLOW_PRIVATE_NETWORK_TARGETS;
    this.outbound = {
      allowPrivateNetworks: allowPrivate === 'auto' ? this.database.mode === 'embedded' : allowPrivate === 'true',
      timeoutMs: env.OUTBOUND_TIMEOUT_MS,
      maxResponseBytes: env.OUTBOUND_MAX_RESPONSE_BYTES,
    };
    this.registry = {
      healthCheckIntervalSeconds: env.AGENT_HEALTH_CHECK_INTERVAL_SECONDS,
      remoteAgentTimeoutMs: env.REMOTE_AGENT_TIMEOUT_MS,
    };
    this.secretsKey = env.SECRETS_KEY;
    this.tasks = {
      concurrency: env.TASK_CONCURRENCY,
      maxTreesPerReplica: env.TASK_MAX_TREES_PER_REPLICA,
      leaseMs: env.TASK_LEASE_MS,
      pollIntervalMs: env.TASK_POLL_INTERVAL_MS,
    };
    this.console = {
      sessionTtlMinutes: env.CONSOLE_SESSION_TTL_MINUTES,
      distDir: env.CONSOLE_DIST_DIR
        ? resolve(process.cwd(), env.CONSOLE_DIST_DIR)
        : resolve(PROJECT_ROOT, 'console', 'dist'),
    };
    this.mcp = {
      requestTimeoutMs: env.MCP_REQUEST_TIMEOUT_MS,
      sessionIdleSeconds: env.MCP_SESSION_IDLE_SECONDS,
    };
    this.commerce = {
      siteName: env.COMMERCE_SITE_NAME,
      siteDescription: env.COMMERCE_SITE_DESCRIPTION,
      rateLimitPerMinute: env.COMMERCE_RATE_LIMIT_PER_MIN,
      sessionTtlSeconds: env.COMMERCE_SESSION_TTL_SECONDS,
      searchCacheSeconds: env.COMMERCE_SEARCH_CACHE_SECONDS,
    };
    this.orchestration = {
      router: {
        model: env.ROUTER_MODEL,
        baseUrl: env.ROUTER_BASE_URL.replace(/\/+$/, ''),
        apiKey: env.ROUTER_API_KEY,
        fallback: env.ROUTER_FALLBACK,
        timeoutMs: env.ROUTER_TIMEOUT_MS,
        embeddings: env.ROUTER_EMBEDDINGS,
      },
      multiAgent: env.ENABLE_MULTI_AGENT_COORDINATION,
      maxParallelAgents: env.MAX_PARALLEL_AGENTS,
      confidenceThreshold: env.ROUTING_CONFIDENCE_THRESHOLD,
      preserveContext: env.ENABLE_CONTEXT_PRESERVATION,
      maxHistory: env.MAX_CONVERSATION_HISTORY,
      agentTimeoutMs: env.AGENT_TIMEOUT_MS,
      contextTtlSeconds: env.CONVERSATION_TTL_SECONDS,
    };
  }
}
