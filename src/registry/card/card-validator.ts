import {
  compareVersions,
  declaredInterfaces,
  DeclaredEndpoint,
  DeclaredInterface,
  endpointHost,
  endpointProblem,
  httpHost,
  isKnownProtocolVersion,
  isKnownTransport,
  unknownTransportMessage,
  unknownVersionMessage,
} from './card-endpoints';
import { unstorableTextPath } from '../../platform/http/json-limits';
import { CardLayout, schemaProblems } from './card-schema';
import { describeValue, isRecord, joinIndex, quote, quoteAll } from './card-text';
import type { CardProblem, CardValidationReport, ValidateAgentCardOptions } from './card-validation.types';

export type { CardProblem, CardValidationReport, ValidateAgentCardOptions } from './card-validation.types';
export { isKnownProtocolVersion, KNOWN_TRANSPORTS } from './card-endpoints';

const MAX_ERRORS_IN_MESSAGE = 10;
const MAX_PROBLEMS = 100;

/**
 * Validates a remote agent card (the JSON from `/.well-known/agent-card.json` or the legacy
 * `/.well-known/agent.json`) against the A2A specification. v0.3 cards (top-level `url` and
 * `protocolVersion`) and v1.0 cards (`supportedInterfaces`) are both understood; a v0.3 card that also
 * embeds `supportedInterfaces`, as SDKs with a v0.3 compatibility layer serve it, is checked as both.
 * Never throws: every finding is a problem in the report.
 */
export function validateAgentCard(card: unknown, options: ValidateAgentCardOptions = {}): CardValidationReport {
  if (!isRecord(card)) {
    return report(emptySummary(), [
      problem('error', '', `the agent card must be a JSON object, got ${describeValue(card)}`),
    ]);
  }
  const layout = detectLayout(card);
  const checks = new CardChecks(card, httpHost(options.baseUrl));
  checks.add(...schemaProblems(layout, card));
  // A card the hub cannot store (it keeps every registered card in PostgreSQL) cannot be registered.
  const unstorable = unstorableTextPath(card, 'card');
  if (unstorable !== undefined) {
    const path = unstorable.replace(/^card\.?/, '');
    const reason = 'contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored';
    checks.add(problem('error', path, `${path || 'the card'} ${reason}`));
  }
  const endpoint = layout === 'v0.3' ? checks.v03() : layout === 'v1.0' ? checks.v10() : checks.unknownLayout();
  checks.content(layout);

  const skills = Array.isArray(card.skills) ? card.skills : [];
  const capabilities = isRecord(card.capabilities) ? card.capabilities : {};
  return report(
    {
      name: typeof card.name === 'string' ? card.name : null,
      url: endpoint.url,
      protocol_version: endpoint.protocolVersion,
      version_valid: isKnownProtocolVersion(endpoint.protocolVersion),
      has_skills: skills.length > 0,
      skill_count: skills.length,
      streaming: capabilities.streaming === true,
      push_notifications: capabilities.pushNotifications === true,
    },
    checks.problems,
  );
}

/**
 * The report's errors as one line for an API error message, e.g.
 * `name is required; skills[0].id must be a string, got 3`. Empty when there are no errors.
 */
export function summarizeErrors(report: CardValidationReport): string {
  const errors = report.problems.filter((item) => item.severity === 'error').map((item) => item.message);
  const shown = errors.slice(0, MAX_ERRORS_IN_MESSAGE).join('; ');
  const hidden = errors.length - MAX_ERRORS_IN_MESSAGE;
  return hidden > 0 ? `${shown}; and ${hidden} more error${hidden === 1 ? '' : 's'}` : shown;
}

type Summary = Omit<CardValidationReport, 'validation' | 'problems'>;

interface Endpoint {
  url: string | null;
  protocolVersion: string | null;
}

/** v0.3 cards have a top-level url/protocolVersion (and may also embed v1.0 supportedInterfaces). */
function detectLayout(card: Record<string, unknown>): CardLayout {
  if (Object.hasOwn(card, 'url') || Object.hasOwn(card, 'protocolVersion')) return 'v0.3';
  if (Object.hasOwn(card, 'supportedInterfaces')) return 'v1.0';
  return 'unknown';
}

/** The checks a schema cannot express: endpoints, versions, hosts, and content that is valid but suspicious. */
class CardChecks {
  readonly problems: CardProblem[] = [];

  constructor(
    private readonly card: Record<string, unknown>,
    private readonly expectedHost: string | null,
  ) {}

  add(...problems: CardProblem[]): void {
    this.problems.push(...problems);
  }

  /** v0.3: `url`, spoken with `preferredTransport`, is the endpoint; the other interfaces only earn warnings. */
  v03(): Endpoint {
    const { card } = this;
    const protocolVersion = typeof card.protocolVersion === 'string' ? card.protocolVersion : null;
    if (protocolVersion !== null && !isKnownProtocolVersion(protocolVersion)) {
      this.add(problem('error', 'protocolVersion', unknownVersionMessage('protocolVersion', protocolVersion)));
    } else if (protocolVersion?.startsWith('1.')) {
      this.add(
        problem(
          'warning',
          'protocolVersion',
          `protocolVersion is ${quote(protocolVersion)} but the card uses the A2A v0.3 layout (top-level url); A2A 1.0 cards list their endpoints in supportedInterfaces`,
        ),
      );
    }

    const transport = typeof card.preferredTransport === 'string' ? card.preferredTransport : 'JSONRPC';
    if (!isKnownTransport(transport)) {
      this.add(problem('warning', 'preferredTransport', unknownTransportMessage('preferredTransport', transport)));
    }
    const url = typeof card.url === 'string' ? card.url : null;
    if (url !== null) {
      // With an unknown transport the url is still checked as the spec's default, JSON-RPC, would need it.
      const primary = {
        urlPath: 'url',
        url,
        transportPath: 'preferredTransport',
        transport: isKnownTransport(transport) ? transport : 'JSONRPC',
      };
      const found = endpointProblem(primary);
      if (found) this.add(problem('error', found.path, found.message));
      else this.checkHost(primary);
    }

    for (const item of declaredInterfaces(card.additionalInterfaces, 'additionalInterfaces', 'transport')) {
      this.optionalInterface(item);
    }
    for (const item of declaredInterfaces(card.supportedInterfaces, 'supportedInterfaces', 'protocolBinding')) {
      this.optionalInterface(item);
      if (typeof item.protocolVersion === 'string' && !isKnownProtocolVersion(item.protocolVersion)) {
        const path = item.versionPath;
        this.add(problem('warning', path, ignored(unknownVersionMessage(path, item.protocolVersion))));
      }
    }
    return { url, protocolVersion };
  }

  /** v1.0: the card is usable if one supported interface is; the problems of the others become warnings. */
  v10(): Endpoint {
    const declared = declaredInterfaces(this.card.supportedInterfaces, 'supportedInterfaces', 'protocolBinding');
    const usable: DeclaredInterface[] = [];
    const unusable: CardProblem[] = [];
    for (const item of declared) {
      const found = endpointProblem(item);
      if (found) unusable.push(problem('error', found.path, found.message));
      else usable.push(item);
    }
    if (usable.length > 0) {
      this.add(...unusable.map((item) => problem('warning', item.path, ignored(item.message))));
    } else {
      this.add(...unusable);
    }
    for (const item of usable) this.checkHost(item);

    const versioned = declared.filter((item) => typeof item.protocolVersion === 'string');
    let highest: DeclaredInterface | undefined;
    for (const item of versioned) {
      if (!highest || compareVersions(item.protocolVersion, highest.protocolVersion) > 0) highest = item;
    }
    for (const item of versioned) {
      if (isKnownProtocolVersion(item.protocolVersion)) continue;
      const path = item.versionPath;
      const message = unknownVersionMessage(path, String(item.protocolVersion));
      if (item === highest) this.add(problem('error', path, message));
      else this.add(problem('warning', path, ignored(message)));
    }

    const preferred = declared.find((item) => item.transport === 'JSONRPC') ?? declared[0];
    return { url: preferred?.url ?? null, protocolVersion: highest ? String(highest.protocolVersion) : null };
  }

  /** Neither layout: say what is missing (the shared fields are still checked by the schema). */
  unknownLayout(): Endpoint {
    const snakeCase = ['protocol_version', 'supported_interfaces'].filter((key) => Object.hasOwn(this.card, key));
    const hint = snakeCase.length > 0 ? ` (found ${quoteAll(snakeCase)}; A2A JSON uses camelCase field names)` : '';
    this.add(
      problem(
        'error',
        '',
        `the card declares no endpoint: expected "url" and "protocolVersion" (A2A v0.3) or "supportedInterfaces" (A2A v1.0)${hint}`,
      ),
    );
    return { url: null, protocolVersion: null };
  }

  /** Content that is valid but makes the card hard to use. Skills without examples are fine. */
  content(layout: CardLayout): void {
    const { card } = this;
    for (const field of ['name', 'description']) {
      const value = card[field];
      if (typeof value === 'string' && value.trim() === '') {
        this.add(problem('warning', field, `${field} is empty; say in a few words what the agent is and does`));
      }
    }
    const modes = { defaultInputModes: 'accepts', defaultOutputModes: 'returns' };
    for (const [field, verb] of Object.entries(modes)) {
      const value = card[field];
      if (Array.isArray(value) && value.length === 0) {
        this.add(
          problem('warning', field, `${field} is empty; list the media types the agent ${verb}, e.g. "text/plain"`),
        );
      }
    }
    if (Array.isArray(card.skills)) {
      if (card.skills.length === 0) {
        this.add(problem('warning', 'skills', 'skills is empty; the agent advertises nothing it can do'));
      }
      this.checkDuplicateSkillIds(card.skills);
    }
    if (layout === 'v0.3') this.checkSecurityReferences('security', (requirement) => requirement);
    if (layout === 'v1.0') this.checkSecurityReferences('securityRequirements', (requirement) => requirement.schemes);
  }

  private optionalInterface(item: DeclaredEndpoint): void {
    const found = endpointProblem(item);
    if (found) this.add(problem('warning', found.path, ignored(found.message)));
    else this.checkHost(item);
  }

  private checkHost(endpoint: Pick<DeclaredEndpoint, 'urlPath' | 'url'>): void {
    const host = endpointHost(endpoint.url);
    if (this.expectedHost === null || host === null || host === this.expectedHost) return;
    this.add(
      problem(
        'warning',
        endpoint.urlPath,
        `${endpoint.urlPath} points at host ${quote(host)}, not ${quote(this.expectedHost)} where the card was fetched; check that the agent advertises its public address`,
      ),
    );
  }

  private checkDuplicateSkillIds(skills: unknown[]): void {
    const firstIndex = new Map<string, number>();
    skills.forEach((skill, index) => {
      if (!isRecord(skill) || typeof skill.id !== 'string') return;
      const first = firstIndex.get(skill.id);
      if (first === undefined) {
        firstIndex.set(skill.id, index);
        return;
      }
      const path = `${joinIndex('skills', index)}.id`;
      this.add(
        problem('warning', path, `${path} ${quote(skill.id)} repeats skills[${first}].id; skill ids should be unique`),
      );
    });
  }

  /** Every scheme a security requirement names (card-wide or per skill) should be declared in `securitySchemes`. */
  private checkSecurityReferences(field: string, schemesOf: (requirement: Record<string, unknown>) => unknown): void {
    const { card } = this;
    const declared = isRecord(card.securitySchemes) ? card.securitySchemes : {};
    const lists: [string, unknown][] = [[field, card[field]]];
    if (Array.isArray(card.skills)) {
      card.skills.forEach((skill, index) => {
        if (isRecord(skill)) lists.push([`${joinIndex('skills', index)}.${field}`, skill[field]]);
      });
    }
    for (const [listPath, requirements] of lists) {
      if (!Array.isArray(requirements)) continue;
      requirements.forEach((requirement, index) => {
        const schemes = isRecord(requirement) ? schemesOf(requirement) : undefined;
        if (!isRecord(schemes)) return;
        const path = joinIndex(listPath, index);
        for (const name of Object.keys(schemes).filter((key) => !Object.hasOwn(declared, key))) {
          this.add(
            problem(
              'warning',
              path,
              `${path} requires security scheme ${quote(name)}, which securitySchemes does not declare`,
            ),
          );
        }
      });
    }
  }
}

function ignored(message: string): string {
  return `${message}; this interface will be ignored`;
}

function emptySummary(): Summary {
  return {
    name: null,
    url: null,
    protocol_version: null,
    version_valid: false,
    has_skills: false,
    skill_count: 0,
    streaming: false,
    push_notifications: false,
  };
}

/**
 * Drops repeats, orders the problems (card-level errors, other errors, warnings), grades the card and
 * caps the list so a card with thousands of broken entries cannot produce an unbounded report.
 */
function report(summary: Summary, problems: CardProblem[]): CardValidationReport {
  const seen = new Set<string>();
  const unique = problems.filter((item) => {
    const key = JSON.stringify([item.severity, item.path, item.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const rank = (item: CardProblem): number => (item.severity === 'warning' ? 2 : item.path === '' ? 0 : 1);
  const ordered = unique.map((item, index) => ({ item, index }));
  ordered.sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index);
  const sorted = ordered.map(({ item }) => item);
  const validation = sorted.length === 0 ? 'passed' : sorted[0].severity === 'error' ? 'failed' : 'warnings';
  return { ...summary, validation, problems: capped(sorted) };
}

function capped(problems: CardProblem[]): CardProblem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const kept = problems.slice(0, MAX_PROBLEMS - 1);
  const dropped = problems.slice(MAX_PROBLEMS - 1);
  const severity = dropped.some((item) => item.severity === 'error') ? 'error' : 'warning';
  return [...kept, problem(severity, '', `${dropped.length} more problems are not listed`)];
}

function problem(severity: CardProblem['severity'], path: string, message: string): CardProblem {
  return { severity, path, message };
}
