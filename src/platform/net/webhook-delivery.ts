import { isDomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { OutboundHttp } from './outbound-http';
import { outboundFailureReason } from './outbound-failures';

export interface WebhookOutcome {
  attempts: number;
  /** The last answer's status; null when none came. */
  httpStatus: number | null;
  /** Why the delivery failed; null when it succeeded. */
  error: string | null;
}

/**
 * Sends one webhook request through the SSRF-guarded client, retrying after each delay in
 * `retryDelaysMs` when the answer is 5xx, 408 or 429 or the network failed. Other 4xx answers and
 * refused addresses are final. Redirects are never followed: they would carry the webhook's
 * credentials to another host.
 */
export async function deliverWebhook(
  http: OutboundHttp,
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
  retryDelaysMs: readonly number[],
): Promise<WebhookOutcome> {
  let attempts = 0;
  let httpStatus: number | null = null;
  let error: string | null = null;
  for (;;) {
    attempts++;
    try {
      httpStatus = await http.statusOf(url, init);
      const ok = httpStatus >= 200 && httpStatus < 300;
      error = ok ? null : `HTTP ${httpStatus}`;
      if (ok || !retryable(httpStatus)) break;
    } catch (failure) {
      httpStatus = null;
      error = outboundFailureReason(failure);
      if (isDomainError(failure) && failure.code === ErrorCode.VALIDATION_FAILED) break;
    }
    const delay = retryDelaysMs[attempts - 1];
    if (delay === undefined) break;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
  return { attempts, httpStatus, error };
}

function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Scheme, host and path of a URL: what logs may show (no query string, no credentials). */
export function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
