import { isDomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { OutboundHttp } from '../../platform/net/outbound-http';

/**
 * What is wrong with a webhook URL the hub is asked to call, as the end of a sentence ("must use
 * http or https"), or undefined when it is fine: its scheme, and its host as the SSRF guard
 * resolves and checks it (OutboundHttp.assertAllowed, which each delivery repeats) - an address
 * the hub may not call is "not allowed" with the guard's reason, a host that does not resolve
 * "not reachable" with the host and why, as an agent card that cannot be fetched is refused at
 * registration. It never repeats the whole URL: a URL may carry a token.
 */
export async function webhookUrlProblem(http: OutboundHttp, url: string): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `must use http or https, got "${parsed.protocol}"`;
  try {
    await http.assertAllowed(url);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const detail = error.details?.reason;
    const reason = typeof detail === 'string' ? detail : error.message;
    if (error.code === ErrorCode.VALIDATION_FAILED) return `is not allowed: ${reason}`;
    if (error.code === ErrorCode.UPSTREAM_FAILED || error.code === ErrorCode.UPSTREAM_TIMEOUT) {
      return `is not reachable: ${parsed.hostname} does not resolve (${reason})`;
    }
    throw error;
  }
  return undefined;
}
