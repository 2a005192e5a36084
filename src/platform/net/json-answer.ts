import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { responseTooLarge } from './dispatch-answer';

/* A JSON answer (an agent card) read as OutboundHttp.getJson reads it: size-capped, UTF-8, parsed. */

/** Reads the body as UTF-8, counting bytes as they arrive: Content-Length is not trusted. */
export async function readText(response: Response, maxBytes: number, origin: string): Promise<string> {
  const tooLarge = (): DomainError => responseTooLarge(origin, maxBytes);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  // With Content-Encoding the declared size is the compressed one; only the decoded bytes count.
  if (!response.headers.has('content-encoding') && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks, total);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // An error page may be in any charset; only a successful answer must be JSON.
    if (!response.ok) return new TextDecoder('utf-8').decode(bytes);
    throw notJson(response, origin, 'the body is not UTF-8');
  }
}

export function parseJson(text: string, response: Response, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!response.ok) return text;
    throw notJson(response, origin, text.trim() === '' ? 'the body is empty' : (error as Error).message);
  }
}

function notJson(response: Response, origin: string, problem: string): DomainError {
  const contentType = response.headers.get('content-type') ?? 'none';
  return new DomainError(
    ErrorCode.UPSTREAM_FAILED,
    `Response from ${origin} is not JSON (HTTP ${response.status}, content-type ${contentType}): ${problem}`,
    { details: { url: origin, reason: 'invalid JSON', status: response.status, contentType } },
  );
}
