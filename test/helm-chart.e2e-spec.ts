import { spawnSync } from 'node:child_process';
import { Console } from 'node:console';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/paths';
import { ENVIRONMENT_VARIABLES, validateEnvironment } from '../src/platform/config/environment';

/**
 * The Helm chart in helm/switchboard, rendered with ../shared/tools/helm-render (Helm's template
 * engine, built from Debian's Go packages) and checked field by field, then validated against the
 * Kubernetes schemas with validate-k8s.mjs. Where the renderer cannot be built without installing
 * packages the suite is skipped with a warning, or fails when SWITCHBOARD_HELM_TESTS=required (as
 * .ci/run sets; build.sh then apt-installs Go).
 */
const CHART = join(PROJECT_ROOT, 'helm', 'switchboard');
const TOOL_DIR = resolve(PROJECT_ROOT, '..', 'shared', 'tools', 'helm-render');
const BUILD = join(TOOL_DIR, 'build.sh');
const VALIDATE = join(TOOL_DIR, 'validate-k8s.mjs');
const PRODUCTION = join(CHART, 'ci', 'production-values.yaml');
const RELEASE = 'sb';
const FULLNAME = 'sb-switchboard';
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
const EXTERNAL = [
  'database.mode=external',
  'secrets.databaseUrl=postgres://switchboard:pw@postgres:5432/switchboard',
  `secrets.secretsKey=${SECRETS_KEY}`,
  'redis.enabled=true',
  'secrets.redisUrl=redis://redis:6379',
];
/** Set by the chart from other values; the schema keeps them out of `config`. */
const CHART_OWNED = [
  'HOST',
  'PORT',
  'GRPC_PORT',
  'METRICS_PORT',
  'DATA_DIR',
  'DATABASE_MIGRATIONS_RUN',
  'SHUTDOWN_TIMEOUT_MS',
];
const SECRET_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'ADMIN_API_KEY', 'SECRETS_KEY', 'ROUTER_API_KEY'];

const helmRequired = process.env.SWITCHBOARD_HELM_TESTS === 'required';
const title = 'the Helm chart (helm-render)';

jest.setTimeout(60_000);

/** js-yaml is already installed (a dependency of @nestjs/swagger); it ships no types of its own. */
const nodeRequire = createRequire(__filename);
const yaml = nodeRequire('js-yaml') as { loadAll(text: string): unknown[] };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Json;
  data?: Record<string, string>;
}

interface Render {
  status: number | null;
  stdout: string;
  stderr: string;
  docs: Manifest[];
}

/**
 * Why build.sh would have to install packages, or undefined when it would not: then it is quick
 * and never calls apt. The package list is read from build.sh itself so the two cannot drift apart.
 */
function whyBuildWouldInstall(): string | undefined {
  if (!existsSync(BUILD)) return `${BUILD} is missing (the shared tools live next to the repository)`;
  const list = /^pkgs=\(\n([\s\S]*?)^\)/m.exec(readFileSync(BUILD, 'utf8'));
  if (!list) return `cannot read the package list in ${BUILD}`;
  const packages = list[1]
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
  const missing = packages.filter((pkg) => {
    const query = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
    return query.status !== 0 || !query.stdout.includes('install ok installed');
  });
  return missing.length ? `Go packages are not installed (${missing.join(' ')})` : undefined;
}

/** validate-k8s.mjs finds kubernetes-models and yaml in K8S_VALIDATE_MODULES, else in the project. */
function validateK8s(...args: string[]) {
  const modules = process.env.K8S_VALIDATE_MODULES;
  return spawnSync(process.execPath, [VALIDATE, '-q', ...(modules ? ['--modules', modules] : []), ...args], {
    input: '',
    encoding: 'utf8',
    cwd: PROJECT_ROOT,
  });
}

/** Exit status 2 is validate-k8s.mjs's "setup is wrong": the npm packages it needs are missing. */
function validatorMissing(): string | undefined {
  if (!existsSync(VALIDATE)) return `${VALIDATE} is missing`;
  const probe = validateK8s('-');
  if (probe.status === 0) return undefined;
  return (
    'kubernetes-models and yaml are not installed (npm install -D kubernetes-models@4 yaml@2, ' +
    `or point K8S_VALIDATE_MODULES at a directory whose node_modules has them): ${probe.stderr.trim()}`
  );
}

// Jest does not show the buffered console of a skipped file: warn on the process's own stderr.
const warn = (message: string) => new Console({ stdout: process.stdout, stderr: process.stderr }).warn(message);

const unavailable = helmRequired ? undefined : whyBuildWouldInstall();
const validatorProblem = unavailable ? undefined : validatorMissing();

if (unavailable)
  warn(
    `Skipping "${title}": ${unavailable}. Run ../shared/tools/helm-render/build.sh once ` +
      '(set SWITCHBOARD_HELM_TESTS=required to build it here and fail instead of skipping).',
  );

(unavailable ? describe.skip : describe)(title, () => {
  let bin: string;
  let work: string;

  beforeAll(() => {
    if (!existsSync(BUILD)) throw new Error(`SWITCHBOARD_HELM_TESTS=required but ${BUILD} is missing`);
    // The first build (or apt install, when required) takes a minute or two; later ones are cached.
    const build = spawnSync('bash', [BUILD], { encoding: 'utf8', timeout: 600_000 });
    if (build.status !== 0) throw new Error(`helm-render/build.sh failed (${build.status}):\n${build.stderr}`);
    bin = build.stdout.trim();
    work = mkdtempSync(join(tmpdir(), 'sb-helm-'));
  }, 660_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Runs helm-render on the chart; `args` may start with `--release NAME` (default: sb). */
  function render(...args: string[]): Render {
    const release = args[0] === '--release' ? [] : ['--release', RELEASE];
    const result = spawnSync(bin, [...release, ...args, CHART], { encoding: 'utf8' });
    const docs = result.status === 0 ? (yaml.loadAll(result.stdout).filter(Boolean) as Manifest[]) : [];
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, docs };
  }

  /** Renders with --set pairs and expects success. */
  function ok(...sets: string[]): Render {
    const result = render(...sets.flatMap((s) => ['--set', s]));
    if (result.status !== 0) throw new Error(`helm-render failed (${result.status}):\n${result.stderr}`);
    return result;
  }

  function valuesFile(name: string, text: string): string {
    const path = join(work, name);
    writeFileSync(path, text);
    return path;
  }

  function find(r: Render, kind: string, name = FULLNAME): Manifest | undefined {
    return r.docs.find((d) => d.kind === kind && d.metadata.name === name);
  }

  function get(r: Render, kind: string, name = FULLNAME): Manifest {
    const doc = find(r, kind, name);
    if (!doc) throw new Error(`no ${kind}/${name} in: ${r.docs.map((d) => `${d.kind}/${d.metadata.name}`).join(', ')}`);
    return doc;
  }

  const podSpec = (r: Render) => get(r, 'Deployment').spec.template.spec;
  const container = (r: Render) => podSpec(r).containers[0];
  const config = (r: Render) => get(r, 'ConfigMap').data ?? {};
  const checksum = (r: Render): string => get(r, 'Deployment').spec.template.metadata.annotations['checksum/config'];

  describe('with the defaults (embedded evaluation mode)', () => {
    let r: Render;
    beforeAll(() => {
      r = ok();
    });

    it('renders one replica and no optional objects', () => {
      expect(r.docs.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service', 'ServiceAccount']);
      expect(get(r, 'Deployment').spec.replicas).toBe(1);
      // One pod owns /data: the old one stops before the new one starts.
      expect(get(r, 'Deployment').spec.strategy).toEqual({ type: 'Recreate' });
    });

    it('probes the health routes on the http port', () => {
      const c = container(r);
      expect(c.startupProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      expect(c.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(120);
    });

    it('names the http, grpc and metrics ports in the container and the Service', () => {
      expect(container(r).ports).toEqual([
        { name: 'http', containerPort: 8080, protocol: 'TCP' },
        { name: 'grpc', containerPort: 50051, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
      ]);
      const service = get(r, 'Service');
      expect(service.spec.ports).toEqual([
        { name: 'http', port: 8080, targetPort: 'http', protocol: 'TCP' },
        { name: 'grpc', port: 50051, targetPort: 'grpc', protocol: 'TCP' },
        { name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' },
      ]);
      const podLabels = get(r, 'Deployment').spec.template.metadata.labels;
      for (const [key, value] of Object.entries(service.spec.selector)) expect(podLabels[key]).toBe(value);
    });

    it('configures the server through the ConfigMap: ports, embedded data dir, migrations at start', () => {
      expect(config(r)).toEqual({
        PORT: '8080',
        GRPC_PORT: '50051',
        METRICS_PORT: '9464',
        DATA_DIR: '/data',
        DATABASE_MIGRATIONS_RUN: 'true',
        SHUTDOWN_TIMEOUT_MS: '25000',
      });
      expect(container(r).envFrom).toEqual([{ configMapRef: { name: FULLNAME } }]);
      expect(container(r).env).toBeUndefined();
    });

    it('runs as the image user, non-root, on a read-only root filesystem with writable /tmp and /data', () => {
      const pod = podSpec(r);
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        runAsGroup: 1000,
        fsGroup: 1000,
      });
      expect(container(r).securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.enableServiceLinks).toBe(false);
      expect(container(r).volumeMounts).toEqual([
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'data', mountPath: '/data' },
      ]);
      expect(pod.volumes).toEqual([
        { name: 'tmp', emptyDir: { sizeLimit: '256Mi' } },
        { name: 'data', emptyDir: {} },
      ]);
    });

    it('sets resources', () => {
      expect(container(r).resources).toEqual({
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { memory: '1536Mi' },
      });
    });

    it('gives the drain time to finish: preStop sleep + drain < terminationGracePeriodSeconds', () => {
      const preStop = container(r).lifecycle.preStop.exec.command as string[];
      expect(preStop[0]).toBe('sleep');
      const sleep = Number(preStop[1]);
      const drain = Number(config(r).SHUTDOWN_TIMEOUT_MS) / 1000;
      expect({ sleep, drain }).toEqual({ sleep: 5, drain: 25 });
      expect(podSpec(r).terminationGracePeriodSeconds).toBeGreaterThan(sleep + drain);
    });

    it('has no migration Job: the embedded database is migrated by the server', () => {
      expect(r.docs.find((d) => d.kind === 'Job')).toBeUndefined();
    });
  });

  describe('with ci/production-values.yaml', () => {
    let r: Render;
    beforeAll(() => {
      r = render('--release', 'switchboard', '-f', PRODUCTION);
      if (r.status !== 0) throw new Error(r.stderr);
    });
    const NAME = 'switchboard';

    it('renders every production object', () => {
      expect(r.docs.map((d) => `${d.kind}/${d.metadata.name}`).sort()).toEqual(
        [
          'ConfigMap/switchboard',
          'Deployment/switchboard',
          'HorizontalPodAutoscaler/switchboard',
          'Ingress/switchboard',
          'Ingress/switchboard-grpc',
          'Job/switchboard-migrate',
          'NetworkPolicy/switchboard',
          'PodDisruptionBudget/switchboard',
          'Service/switchboard',
          'ServiceAccount/switchboard',
          'ServiceMonitor/switchboard',
        ].sort(),
      );
    });

    it('leaves replicas to the autoscaling/v2 HPA', () => {
      const deployment = get(r, 'Deployment', NAME);
      expect(deployment.spec).not.toHaveProperty('replicas');
      const hpa = get(r, 'HorizontalPodAutoscaler', NAME);
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec).toMatchObject({
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: NAME },
        minReplicas: 3,
        maxReplicas: 12,
      });
      expect(deployment.spec.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 },
      });
    });

    it('protects the server pods with a PodDisruptionBudget', () => {
      const pdb = get(r, 'PodDisruptionBudget', NAME);
      expect(pdb.apiVersion).toBe('policy/v1');
      expect(pdb.spec.maxUnavailable).toBe(1);
      const podLabels = get(r, 'Deployment', NAME).spec.template.metadata.labels;
      for (const [key, value] of Object.entries(pdb.spec.selector.matchLabels)) expect(podLabels[key]).toBe(value);
    });

    it('reads the secrets from the existing Secret and creates none', () => {
      expect(r.docs.find((d) => d.kind === 'Secret')).toBeUndefined();
      const c = get(r, 'Deployment', NAME).spec.template.spec.containers[0];
      expect(c.envFrom).toEqual([{ configMapRef: { name: NAME } }, { secretRef: { name: 'switchboard-env' } }]);
      const annotations = get(r, 'Deployment', NAME).spec.template.metadata.annotations;
      expect(annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
      expect(annotations).not.toHaveProperty('checksum/secret');
    });

    it('derives the public URLs from the ingress and leaves migrating to the hook Job', () => {
      const data = get(r, 'ConfigMap', NAME).data;
      expect(data).toMatchObject({
        PUBLIC_URL: 'https://switchboard.example.com',
        PUBLIC_GRPC_ADDRESS: 'grpc.switchboard.example.com:443',
        TRUST_PROXY: 'true',
        DATABASE_MIGRATIONS_RUN: 'false',
        DATABASE_POOL_SIZE: '20',
      });
      expect(data).not.toHaveProperty('DATA_DIR');
      const spec = get(r, 'Deployment', NAME).spec.template.spec;
      expect(spec.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: '256Mi' } }]);
    });

    it('runs migrations as a pre-install/pre-upgrade hook Job with the existing Secret', () => {
      const job = get(r, 'Job', `${NAME}-migrate`);
      expect(job.metadata.annotations).toEqual({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-weight': '0',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      const pod = job.spec.template.spec;
      expect(pod.restartPolicy).toBe('Never');
      // The release's ServiceAccount does not exist yet at pre-install.
      expect(pod).not.toHaveProperty('serviceAccountName');
      const c = pod.containers[0];
      expect(c.command).toEqual(['node', 'dist/cli/migrate.js', 'run']);
      expect(c.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true });
      const env = new Map((c.env as { name: string; value?: string; valueFrom?: unknown }[]).map((e) => [e.name, e]));
      expect(env.get('DATABASE_URL')?.valueFrom).toEqual({
        secretKeyRef: { name: 'switchboard-env', key: 'DATABASE_URL' },
      });
      expect(env.get('SECRETS_KEY')?.valueFrom).toEqual({
        secretKeyRef: { name: 'switchboard-env', key: 'SECRETS_KEY' },
      });
      expect(env.get('DATABASE_POOL_SIZE')?.value).toBe('20');
      // Not selected by the Service, the PDB or the NetworkPolicy.
      expect(job.spec.template.metadata.labels['app.kubernetes.io/component']).toBe('migrations');
    });

    it('routes HTTP and gRPC through separate Ingresses, gRPC with its HTTP/2 backend annotation', () => {
      const http = get(r, 'Ingress', NAME);
      expect(http.spec.rules[0].host).toBe('switchboard.example.com');
      expect(http.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: NAME, port: { name: 'http' } } });
      expect(http.spec.tls).toEqual([{ hosts: ['switchboard.example.com'], secretName: 'switchboard-tls' }]);
      const grpc = get(r, 'Ingress', `${NAME}-grpc`);
      expect(grpc.metadata.annotations?.['nginx.ingress.kubernetes.io/backend-protocol']).toBe('GRPC');
      expect(grpc.spec.rules[0].host).toBe('grpc.switchboard.example.com');
      expect(grpc.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: NAME, port: { name: 'grpc' } } });
    });

    it('scrapes /metrics on the metrics port and limits who may reach the pods', () => {
      const monitor = get(r, 'ServiceMonitor', NAME);
      expect(monitor.spec.endpoints).toEqual([
        { port: 'metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' },
      ]);
      expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack');
      const policy = get(r, 'NetworkPolicy', NAME);
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      expect(policy.spec.podSelector.matchLabels['app.kubernetes.io/component']).toBe('server');
      expect(policy.spec.ingress.map((rule: { ports: { port: string }[] }) => rule.ports.map((p) => p.port))).toEqual([
        ['http', 'grpc'],
        ['metrics'],
      ]);
    });

    it('fills in the topology spread selector', () => {
      const [constraint] = get(r, 'Deployment', NAME).spec.template.spec.topologySpreadConstraints;
      expect(constraint.labelSelector.matchLabels).toEqual({
        'app.kubernetes.io/name': 'switchboard',
        'app.kubernetes.io/instance': 'switchboard',
        'app.kubernetes.io/component': 'server',
      });
    });
  });

  describe('with the chart managing the Secret (external PostgreSQL and Redis)', () => {
    let r: Render;
    beforeAll(() => {
      r = ok(...EXTERNAL, 'replicaCount=3', 'secrets.adminApiKey=admin-key-with-24-characters');
    });

    it('stores only the variables in use, base64-encoded, and rolls the pods when they change', () => {
      const secret = get(r, 'Secret');
      const decoded = Object.fromEntries(
        Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
      expect(decoded).toEqual({
        DATABASE_URL: 'postgres://switchboard:pw@postgres:5432/switchboard',
        REDIS_URL: 'redis://redis:6379',
        SECRETS_KEY,
        ADMIN_API_KEY: 'admin-key-with-24-characters',
      });
      expect(container(r).envFrom).toEqual([{ configMapRef: { name: FULLNAME } }, { secretRef: { name: FULLNAME } }]);
      const before = get(r, 'Deployment').spec.template.metadata.annotations['checksum/secret'];
      const after = get(
        ok(...EXTERNAL, 'replicaCount=3', 'secrets.adminApiKey=another-key-with-24-characters'),
        'Deployment',
      ).spec.template.metadata.annotations['checksum/secret'];
      expect(before).toMatch(/^[0-9a-f]{64}$/);
      expect(after).not.toBe(before);
      expect(get(r, 'Deployment').spec.replicas).toBe(3);
    });

    it('gives the pre-install Job its own hook copy of the two variables it needs, created before it', () => {
      const copy = get(r, 'Secret', `${FULLNAME}-migrate`);
      const job = get(r, 'Job', `${FULLNAME}-migrate`);
      expect(copy.metadata.annotations).toEqual({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-weight': '-10',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      expect(Number(copy.metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(
        Number(job.metadata.annotations?.['helm.sh/hook-weight']),
      );
      expect(Object.keys(copy.data ?? {}).sort()).toEqual(['DATABASE_URL', 'SECRETS_KEY']);
      const refs = (job.spec.template.spec.containers[0].env as { name: string; valueFrom?: Json }[])
        .filter((e) => e.valueFrom)
        .map((e) => [e.name, e.valueFrom?.secretKeyRef.name]);
      expect(refs).toEqual([
        ['DATABASE_URL', `${FULLNAME}-migrate`],
        ['SECRETS_KEY', `${FULLNAME}-migrate`],
      ]);
    });

    it('skips the Job when migrations.enabled=false, and the server migrates at start', () => {
      const off = ok(...EXTERNAL, 'migrations.enabled=false');
      expect(off.docs.filter((d) => d.metadata.name === `${FULLNAME}-migrate`)).toEqual([]);
      expect(config(off).DATABASE_MIGRATIONS_RUN).toBe('true');
    });
  });

  describe('values', () => {
    it('changes checksum/config when the configuration changes, and only then', () => {
      const base = checksum(ok());
      expect(base).toMatch(/^[0-9a-f]{64}$/);
      expect(checksum(ok())).toBe(base);
      expect(checksum(ok('resources.limits.memory=2Gi'))).toBe(base);
      expect(checksum(ok('config.LOG_LEVEL=debug'))).not.toBe(base);
      expect(checksum(ok('shutdown.drainSeconds=40'))).not.toBe(base);
    });

    it('derives SHUTDOWN_TIMEOUT_MS and the grace period from the shutdown values', () => {
      const r = ok('shutdown.drainSeconds=60', 'shutdown.preStopSleepSeconds=10', 'shutdown.exitMarginSeconds=3');
      expect(config(r).SHUTDOWN_TIMEOUT_MS).toBe('60000');
      expect(container(r).lifecycle.preStop.exec.command).toEqual(['sleep', '10']);
      expect(podSpec(r).terminationGracePeriodSeconds).toBe(73);
    });

    it('writes config values as the server reads them (no float notation for large numbers)', () => {
      const file = valuesFile(
        'config.yaml',
        'config:\n  MAX_BODY_BYTES: 2097152\n  ROUTING_CONFIDENCE_THRESHOLD: 0.55\n  TRUST_PROXY: true\n  LOG_LEVEL: warn\n',
      );
      const r = render('-f', file);
      expect(r.status).toBe(0);
      expect(config(r)).toMatchObject({
        MAX_BODY_BYTES: '2097152',
        ROUTING_CONFIDENCE_THRESHOLD: '0.55',
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'warn',
      });
    });

    it('mounts a PersistentVolumeClaim at /data when embedded persistence is on', () => {
      const r = ok('database.embedded.persistence.enabled=true', 'database.embedded.persistence.size=5Gi');
      expect(get(r, 'PersistentVolumeClaim', `${FULLNAME}-data`).spec.resources.requests.storage).toBe('5Gi');
      expect(podSpec(r).volumes).toContainEqual({
        name: 'data',
        persistentVolumeClaim: { claimName: `${FULLNAME}-data` },
      });
    });

    it('toggles the ServiceMonitor, the NetworkPolicy and the metrics port', () => {
      expect(find(ok('metrics.serviceMonitor.enabled=true'), 'ServiceMonitor')).toBeDefined();
      expect(find(ok('networkPolicy.enabled=true'), 'NetworkPolicy')).toBeDefined();
      const noMetrics = ok('metrics.enabled=false');
      expect(config(noMetrics)).not.toHaveProperty('METRICS_PORT');
      expect(container(noMetrics).ports.map((p: { name: string }) => p.name)).toEqual(['http', 'grpc']);
      expect(get(noMetrics, 'Service').spec.ports.map((p: { name: string }) => p.name)).toEqual(['http', 'grpc']);
    });

    it('knows every server variable: config (schema), chart-owned or secret', () => {
      const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8'));
      const configNames = Object.keys(schema.properties.config.properties as object);
      expect(configNames.filter((n) => !ENVIRONMENT_VARIABLES.includes(n))).toEqual([]);
      const known = new Set([...configNames, ...CHART_OWNED, ...SECRET_VARIABLES]);
      expect(ENVIRONMENT_VARIABLES.filter((n) => !known.has(n))).toEqual([]);
    });

    it("renders environments the server's own configuration check accepts", () => {
      const secret = (r: Render) =>
        Object.fromEntries(
          Object.entries(find(r, 'Secret')?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        );
      const embedded = validateEnvironment(config(ok('config.MAX_BODY_BYTES=2097152')));
      expect(embedded).toMatchObject({
        PORT: 8080,
        GRPC_PORT: 50051,
        DATA_DIR: '/data',
        DATABASE_MIGRATIONS_RUN: true,
      });
      expect(embedded.MAX_BODY_BYTES).toBe(2097152);
      const managed = ok(...EXTERNAL, 'ingress.enabled=true', 'ingress.grpc.enabled=true');
      expect(validateEnvironment({ ...config(managed), ...secret(managed) })).toMatchObject({
        DATABASE_MIGRATIONS_RUN: false,
        SHUTDOWN_TIMEOUT_MS: 25000,
        PUBLIC_URL: 'http://switchboard.example.com',
        PUBLIC_GRPC_ADDRESS: 'grpc.switchboard.example.com:80',
        TRUST_PROXY: true,
      });
      // The production example with what its existing Secret would hold.
      const production = render('-f', PRODUCTION);
      const existingSecret = {
        DATABASE_URL: 'postgres://u:p@postgres:5432/db',
        REDIS_URL: 'redis://redis:6379',
        SECRETS_KEY,
      };
      expect(validateEnvironment({ ...config(production), ...existingSecret })).toMatchObject({
        DATABASE_POOL_SIZE: 20,
        PUBLIC_URL: 'https://switchboard.example.com',
      });
    });
  });

  describe('render-time protection', () => {
    const REDIS_MESSAGE = 'replicaCount > 1 or autoscaling.enabled needs Redis';

    it.each([['replicaCount=2'], ['autoscaling.enabled=true']])('fails with %s and no Redis', (set) => {
      const r = render('--set', set);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(REDIS_MESSAGE);
      expect(r.stdout).toBe('');
    });

    it('fails with more than one replica on the embedded database, even with Redis', () => {
      const r = render(
        '--set',
        'replicaCount=2',
        '--set',
        'redis.enabled=true',
        '--set',
        'secrets.redisUrl=redis://r:6379',
      );
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('database.mode=embedded runs exactly one replica');
    });

    it.each([
      [['database.mode=external'], 'database.mode=external needs secrets.databaseUrl or secrets.existingSecret'],
      [
        ['database.mode=external', 'secrets.databaseUrl=postgres://u:p@h/d'],
        'database.mode=external needs secrets.secretsKey',
      ],
      [['redis.enabled=true'], 'redis.enabled needs secrets.redisUrl or secrets.existingSecret'],
      [['secrets.databaseUrl=postgres://u:p@h/d'], 'secrets.databaseUrl is set but database.mode is embedded'],
      [['ingress.enabled=true', 'ingress.tls.enabled=true'], 'ingress.tls.enabled needs ingress.tls.secretName'],
      [
        ['metrics.enabled=false', 'metrics.serviceMonitor.enabled=true'],
        'metrics.serviceMonitor.enabled needs metrics.enabled',
      ],
    ])('fails with %j', (sets, message) => {
      const r = render(...sets.flatMap((s) => ['--set', s]));
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(message);
    });

    it('accepts replicas with Redis and the external database', () => {
      expect(render(...[...EXTERNAL, 'replicaCount=2'].flatMap((s) => ['--set', s])).status).toBe(0);
    });

    it.each([
      ['replicaCount=two', 'replicaCount: Invalid type. Expected: integer, given: string'],
      ['database.mode=sqlite', 'database.mode must be one of the following'],
      ['config.PORT=9000', 'Additional property PORT is not allowed'],
      ['config.DATABASE_URL=postgres://u:p@h/d', 'Additional property DATABASE_URL is not allowed'],
      ['config.LOG_LEVEL=loud', 'config.LOG_LEVEL must be one of the following'],
      ['secrets.secretsKey=short', 'secrets.secretsKey: Does not match pattern'],
      ['replicaCont=2', 'Additional property replicaCont is not allowed'],
    ])('the schema rejects %s', (set, message) => {
      const r = render('--set', set);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain("values don't meet the specifications of the schema(s)");
      expect(r.stderr).toContain(message);
    });
  });

  const validateTitle = 'against the Kubernetes schemas (validate-k8s.mjs)';
  if (validatorProblem && helmRequired) {
    describe(validateTitle, () => {
      it('needs kubernetes-models and yaml', () => {
        throw new Error(`SWITCHBOARD_HELM_TESTS=required but ${validatorProblem}`);
      });
    });
  } else {
    if (validatorProblem) warn(`Not validating the manifests: ${validatorProblem}.`);
    (validatorProblem ? describe.skip : describe)(validateTitle, () => {
      it.each([
        ['the defaults', [] as string[]],
        ['ci/production-values.yaml', ['-f', PRODUCTION]],
        ['the chart-managed Secret and hook Job', EXTERNAL.flatMap((s) => ['--set', s])],
        [
          'embedded persistence, ingress without TLS, NetworkPolicy with restricted egress, PDB minAvailable',
          [
            'database.embedded.persistence.enabled=true',
            'ingress.enabled=true',
            'ingress.grpc.enabled=true',
            'networkPolicy.enabled=true',
            'networkPolicy.egress.restrict=true',
            'podDisruptionBudget.enabled=true',
            'podDisruptionBudget.minAvailable=1',
          ].flatMap((s) => ['--set', s]),
        ],
      ])('every manifest of %s is valid', (_name, args) => {
        const r = render(...args);
        expect(r.status).toBe(0);
        const file = valuesFile('rendered.yaml', r.stdout);
        const check = validateK8s('--allow-kind', 'monitoring.coreos.com/v1/ServiceMonitor', file);
        expect(check.stdout + check.stderr).toMatch(/validate-k8s: [1-9]\d* checked, \d+ skipped, 0 problem\(s\)/);
        expect(check.status).toBe(0);
      });
    });
  }
});
