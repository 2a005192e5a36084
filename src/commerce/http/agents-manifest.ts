import type { AppConfig } from '../../platform/config/app-config';
import { AGENTS_API_BASE, CAPABILITIES, SESSION_PATH } from './agents-api.routes';

/** The agents.json protocol version this manifest conforms to (its published schema wants x.y.z). */
export const AGENTS_PROTOCOL_VERSION = '0.1.0';

/**
 * /.well-known/agents.json, readable by both dialects in the field - the published JSON schema
 * (`protocol_version`, `session.endpoint`/`ttl`, `max_requests_per_minute`) and the reference SDK
 * and its client (`schema_version`, `session.create`/`delete`/`ttl_seconds`, `requests_per_minute`)
 * - with absolute endpoints and `:id` path parameters. `session.create` and `session.delete` are
 * URLs, as the client reads them: it POSTs to `create` and DELETEs the same URL to end a session.
 */
export function agentsManifest(base: string, config: AppConfig) {
  const api = `${base}/${AGENTS_API_BASE}`;
  const session = `${api}/${SESSION_PATH}`;
  const perMinute = config.commerce.rateLimitPerMinute;
  return {
    schema_version: '1.0',
    protocol_version: AGENTS_PROTOCOL_VERSION,
    site: { name: config.commerce.siteName, url: base, description: config.commerce.siteDescription },
    capabilities: CAPABILITIES.map((capability) => ({
      name: capability.name,
      description: capability.description,
      method: capability.method,
      endpoint: `${api}/${capability.path}`,
      params: capability.params,
      requires_session: capability.requiresSession,
      human_handoff: capability.humanHandoff,
    })),
    session: {
      endpoint: session,
      ttl: config.commerce.sessionTtlSeconds,
      create: session,
      delete: session,
      ttl_seconds: config.commerce.sessionTtlSeconds,
      headers: ['Authorization: Bearer <session_token>', 'X-Session-Token', 'X-Agent-Session'],
    },
    rate_limit: { requests_per_minute: perMinute, max_requests_per_minute: perMinute },
    response_format: {
      envelope: '{"ok": true, "data": …} or {"ok": false, "error": "…"}',
      prices: 'integer minor units',
    },
  };
}

/**
 * /.well-known/agents.txt: the same as `Key: Value` lines with the agents.txt spec's field names
 * (Name, URL, Capabilities, Capabilities-URL, Agent-API, Session-Endpoint, Rate-Limit,
 * Session-TTL); each capability's method and endpoint follow as comments, which parsers skip.
 */
export function agentsText(base: string, config: AppConfig): string {
  const manifest = agentsManifest(base, config);
  const lines = [
    `# agents.txt - ${oneLine(manifest.site.name)}`,
    `# ${manifest.site.url}`,
    '',
    `Name: ${oneLine(manifest.site.name)}`,
    `URL: ${manifest.site.url}`,
    `Description: ${oneLine(manifest.site.description)}`,
    '',
    `Capabilities: ${manifest.capabilities.map((c) => c.name).join(', ')}`,
    `Capabilities-URL: ${base}/.well-known/agents.json`,
    `Agent-API: ${base}/${AGENTS_API_BASE}`,
    `Session-Endpoint: ${manifest.session.endpoint}`,
    `Rate-Limit: ${manifest.rate_limit.requests_per_minute}`,
    `Session-TTL: ${manifest.session.ttl}`,
    '',
    '# Capabilities (method, endpoint, flags):',
    ...manifest.capabilities.map(
      (c) =>
        `# ${c.name}: ${c.method} ${c.endpoint}` +
        `${c.requires_session ? ' requires_session' : ''}${c.human_handoff ? ' human_handoff' : ''}`,
    ),
    '',
  ];
  return lines.join('\n');
}

/** A value on one line: a configured description must not break the `Key: Value` format. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
