import { isDomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { OutboundHttp } from '../../platform/net/outbound-http';

/**
 * What is wrong with a webhook URL the hub is asked to call - scheme and address, as the SSRF
 * guard checks again at each delivery - as the end of a sentence ("must use http or https"), or
 * undefined when it is fine. It never repeats the URL: a URL may carry a token.
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
    if (isDomainError(error) && error.code === ErrorCode.VALIDATION_FAILED)
      return `is not allowed: ${String(error.details?.reason)}`;
    // A DNS failure now need not mean the webhook is wrong; deliveries will tell.
  }
  return undefined;
}
