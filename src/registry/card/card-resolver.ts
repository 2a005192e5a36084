import { Injectable } from '@nestjs/common';
import { DomainError, isDomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { outboundFailureReason } from '../../platform/net/outbound-failures';
import { CardValidationReport } from './card-validation.types';
import { validateAgentCard } from './card-validator';

export const CARD_PATH = '/.well-known/agent-card.json';
export const LEGACY_CARD_PATH = '/.well-known/agent.json';

export interface ResolvedCard {
  /** The base URL as the hub will use it: absolute, no trailing slash. */
  baseUrl: string;
  cardUrl: string;
  card: Record<string, unknown>;
  report: CardValidationReport;
}

/**
 * Finds a remote agent's card: `{base_url}/.well-known/agent-card.json`, then the legacy
 * `{base_url}/.well-known/agent.json`, through the SSRF-guarded client (bounded size, timeout).
 * The first valid card wins; failing that, the first card found (invalid) is returned with its
 * report. Errors: "No agent card found at {base_url}" (neither path answered with a card),
 * "Failed to resolve agent card: connection refused" (or timeout, host not found, ...), and the
 * guard's refusal for addresses the hub may not call.
 */
@Injectable()
export class CardResolver {
  constructor(private readonly http: OutboundHttp) {}

  /** `credentials` go to the agent's own origin only; a redirect is then not followed. */
  async resolve(rawBaseUrl: string, credentials: Record<string, string> = {}): Promise<ResolvedCard> {
    const baseUrl = normalizeBaseUrl(rawBaseUrl);
    const attempts: { url: string; problem: string }[] = [];
    let fallback: ResolvedCard | undefined;
    for (const path of [CARD_PATH, LEGACY_CARD_PATH]) {
      const cardUrl = `${baseUrl}${path}`;
      let response;
      try {
        response = await this.http.getJson(cardUrl, { credentials });
      } catch (error) {
        if (isDomainError(error) && error.code === ErrorCode.VALIDATION_FAILED) throw error;
        const reason = outboundFailureReason(error);
        if (reason === 'invalid JSON') {
          attempts.push({ url: cardUrl, problem: 'not JSON' });
          continue;
        }
        throw new DomainError(
          isDomainError(error) && error.code === ErrorCode.UPSTREAM_TIMEOUT
            ? ErrorCode.UPSTREAM_TIMEOUT
            : ErrorCode.UPSTREAM_FAILED,
          `Failed to resolve agent card: ${reason}`,
          { details: { base_url: baseUrl, reason }, cause: error },
        );
      }
      if (response.status !== 200) {
        attempts.push({ url: cardUrl, problem: `HTTP ${response.status}` });
        continue;
      }
      if (!response.body || typeof response.body !== 'object' || Array.isArray(response.body)) {
        attempts.push({ url: cardUrl, problem: 'not a JSON object' });
        continue;
      }
      const card = response.body as Record<string, unknown>;
      const report = validateAgentCard(card, { baseUrl });
      const resolved = { baseUrl, cardUrl, card, report };
      if (report.validation !== 'failed') return resolved;
      attempts.push({ url: cardUrl, problem: 'invalid card' });
      fallback ??= resolved;
    }
    if (fallback) return fallback;
    throw new DomainError(ErrorCode.NOT_FOUND, `No agent card found at ${baseUrl}`, {
      details: { base_url: baseUrl, attempts },
    });
  }
}

/** An absolute http(s) URL without trailing slash; a card URL given as base is cut back to its base. */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw DomainError.validation([{ field: 'base_url', reason: 'must be an absolute http(s) URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw DomainError.validation([{ field: 'base_url', reason: 'must use http or https' }]);
  }
  url.hash = '';
  url.search = '';
  let path = url.pathname.replace(/\/+$/, '');
  for (const suffix of [CARD_PATH, LEGACY_CARD_PATH]) if (path.endsWith(suffix)) path = path.slice(0, -suffix.length);
  return `${url.origin}${path}`;
}
