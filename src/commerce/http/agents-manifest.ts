import type { AppConfig } from '../../platform/config/app-config';
import { AGENTS_API_BASE, CAPABILITIES, SESSION_PATH } from './agents-api.routes';

/**
 * /.well-known/agents.json, readable by both dialects in the field (the published schema and the
 * reference SDK): `schema_version` and `protocol_version`, absolute endpoints with `:id` path
 * parameters, `requests_per_minute` and `max_requests_per_minute`.
 */
export function agentsManifest(base: string, config: AppConfig) {
  const api = `${base}/${AGENTS_API_BASE}`;
  const perMinute = config.commerce.rateLimitPerMinute;
  return {
    schema_version: '1.0',
    protocol_version: '1.0',
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
      create: { method: 'POST', endpoint: `${api}/${SESSION_PATH}` },
      delete: { method: 'DELETE', endpoint: `${api}/${SESSION_PATH}` },
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

/** /.well-known/agents.txt: the same, as a plain-text summary with the spec's field names. */
export function agentsText(base: string, config: AppConfig): string {
  const manifest = agentsManifest(base, config);
  const lines = [
    `# ${manifest.site.name}`,
    `# ${manifest.site.description}`,
    '',
    `schema_version: ${manifest.schema_version}`,
    `site_url: ${manifest.site.url}`,
    `manifest: ${base}/.well-known/agents.json`,
    `session_create: POST ${manifest.session.create.endpoint}`,
    `session_delete: DELETE ${manifest.session.delete.endpoint}`,
    `session_ttl_seconds: ${manifest.session.ttl_seconds}`,
    `requests_per_minute: ${manifest.rate_limit.requests_per_minute}`,
    '',
    ...manifest.capabilities.map(
      (c) =>
        `capability: ${c.name} ${c.method} ${c.endpoint}` +
        `${c.requires_session ? ' requires_session' : ''}${c.human_handoff ? ' human_handoff' : ''} - ${c.description}`,
    ),
    '',
  ];
  return lines.join('\n');
}
