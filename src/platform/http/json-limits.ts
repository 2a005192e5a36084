import type { JsonLimits } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const LOWER_U = 0x75;

let itemCounts = new Uint32Array(66);

/** What scanning a JSON text found. */
export interface JsonScan {
  /** A limit the text exceeds, as the error to answer. */
  problem?: DomainError;
  /**
   * The text escapes a NUL or a surrogate: the parsed value may hold text PostgreSQL cannot store
   * (see textProblem), which only the parsed value can tell (and name the field of).
   */
  suspectText: boolean;
}

/**
 * Checks a JSON text against the limits before anything parses it, so no parser or validator
 * down the line recurses into a document built to exhaust the stack: one pass over the bytes,
 * counting nesting, the items of each array or object and the length of each string. It does not
 * validate the JSON (the parser does that next); a text that is not JSON passes or fails here
 * on what it looks like.
 */
export function scanJson(bytes: Uint8Array, limits: JsonLimits): JsonScan {
  // The count of items at each level: one array for every scan (it runs to the end undisturbed).
  if (itemCounts.length < limits.maxDepth + 2) itemCounts = new Uint32Array(limits.maxDepth + 2);
  const items = itemCounts;
  let depth = 0;
  let suspectText = false;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      const start = i;
      for (i++; i < length; i++) {
        const inner = bytes[i];
        if (inner === QUOTE) break;
        if (inner !== BACKSLASH) continue;
        i++;
        // \u0000 and \uD800-\uDFFF: the parsed text may hold a NUL or a lone surrogate.
        if (bytes[i] === LOWER_U && (isZeroEscape(bytes, i + 1) || isSurrogateEscape(bytes, i + 1))) {
          suspectText = true;
        }
      }
      if (i - start - 1 > limits.maxStringBytes) {
        const what = `a string is longer than ${limits.maxStringBytes} bytes`;
        return { problem: limitError(what, 'JSON_MAX_STRING_BYTES', limits.maxStringBytes), suspectText };
      }
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limits.maxDepth) {
        const what = `arrays and objects are nested deeper than ${limits.maxDepth} levels`;
        return { problem: limitError(what, 'JSON_MAX_DEPTH', limits.maxDepth), suspectText };
      }
      items[depth] = 0;
    } else if (byte === COMMA) {
      // n commas separate n + 1 items.
      if (++items[depth] >= limits.maxItems) {
        const what = `an array or object has more than ${limits.maxItems} items`;
        return { problem: limitError(what, 'JSON_MAX_ITEMS', limits.maxItems), suspectText };
      }
    } else if ((byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) && depth > 0) {
      depth--;
    }
  }
  return { suspectText };
}

/**
 * The first place in a parsed JSON value whose text PostgreSQL cannot store - a NUL character or
 * a lone UTF-16 surrogate, in a string or a member name - as an error naming it; the one rule for
 * text the hub accepts (every transport refuses such text rather than storing it altered).
 * `root` names the value (`body`, `params`, a gRPC field).
 */
export function textProblem(value: unknown, root: string): DomainError | undefined {
  const field = badTextPath(value, root);
  if (field === undefined) return undefined;
  return DomainError.validation([
    { field, reason: 'contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored' },
  ]);
}

/** `%00` in a URL: decoded, a NUL (the one unstorable character percent-encoding can make). */
const ENCODED_NUL = /%00/;

/**
 * The same rule for a request's URL: a path segment or query parameter that decodes to a NUL
 * (an id, a filter) is refused naming the part, rather than reaching a query PostgreSQL rejects.
 * (A lone surrogate cannot come from a URL: decoding its UTF-8 fails first.)
 */
export function urlTextProblem(url: string): DomainError | undefined {
  if (!ENCODED_NUL.test(url)) return undefined;
  const query = url.indexOf('?');
  const field = query !== -1 && ENCODED_NUL.test(url.slice(query)) ? 'query' : 'path';
  return DomainError.validation([{ field, reason: 'contains a NUL character (%00), which cannot be stored' }]);
}

/**
 * Parses a JSON text that arrives outside an HTTP body (a WebSocket frame, a gRPC field holding
 * JSON) under the same limits and text rule as bodies. A text that is not JSON is MALFORMED_REQUEST.
 */
export function parseLimitedJson(text: string, limits: JsonLimits, field: string): unknown {
  const scan = scanJson(Buffer.from(text, 'utf8'), limits);
  if (scan.problem) throw scan.problem;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError(ErrorCode.MALFORMED_REQUEST, `${field} is not valid JSON`);
  }
  const problem = scan.suspectText ? textProblem(value, field) : undefined;
  if (problem) throw problem;
  return value;
}

/**
 * Checks a message decoded from another wire format (a gRPC request) by the same rules: nesting,
 * items and string length within the limits - `depthAllowance` more levels for the message's own
 * structure around its JSON (Structs) - and no text PostgreSQL cannot store. Binary fields are
 * not looked into.
 */
export function decodedProblem(value: unknown, limits: JsonLimits, depthAllowance: number): DomainError | undefined {
  const maxDepth = limits.maxDepth + depthAllowance;
  const walk = (node: unknown, path: string, depth: number): DomainError | undefined => {
    if (typeof node === 'string') {
      if (node.length > limits.maxStringBytes) {
        return limitError(
          `${path} is longer than ${limits.maxStringBytes} bytes`,
          'JSON_MAX_STRING_BYTES',
          limits.maxStringBytes,
        );
      }
      return UNSTORABLE.test(node) ? textProblem(node, path) : undefined;
    }
    if (node === null || typeof node !== 'object' || ArrayBuffer.isView(node)) return undefined;
    if (depth >= maxDepth) {
      const what = `${path} nests deeper than ${limits.maxDepth} levels`;
      return limitError(what, 'JSON_MAX_DEPTH', limits.maxDepth);
    }
    const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
    let count = 0;
    for (const [key, member] of entries) {
      if (++count > limits.maxItems) {
        return limitError(`${path} has more than ${limits.maxItems} items`, 'JSON_MAX_ITEMS', limits.maxItems);
      }
      if (typeof key === 'string' && UNSTORABLE.test(key)) return textProblem({ [key]: 0 }, path);
      const found = walk(member, typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, 'request', 0);
}

/** What a document over a limit is answered with: 400, JSON-RPC -32600, gRPC INVALID_ARGUMENT. */
function limitError(what: string, limit: string, max: number): DomainError {
  return new DomainError(ErrorCode.INVALID_REQUEST, `JSON refused: ${what} (${limit})`, {
    details: { limit, max },
  });
}

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where in `value` (named `path`) the first text PostgreSQL cannot store is (see textProblem), if anywhere. */
export function unstorableTextPath(value: unknown, path: string): string | undefined {
  return badTextPath(value, path);
}

function badTextPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badTextPath(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, member] of Object.entries(value)) {
    if (UNSTORABLE.test(key)) return `${path} (a member name)`;
    const found = badTextPath(member, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `0000` at `at`. */
function isZeroEscape(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0x30 && bytes[at + 1] === 0x30 && bytes[at + 2] === 0x30 && bytes[at + 3] === 0x30;
}

/** `D8`..`DF` (either case) at `at`: a surrogate escape, paired or not (textProblem tells). */
function isSurrogateEscape(bytes: Uint8Array, at: number): boolean {
  const first = bytes[at];
  const second = bytes[at + 1] | 0x20; // lower case
  return (first === 0x44 || first === 0x64) && second >= 0x38 && second <= 0x66 && (second <= 0x39 || second >= 0x61);
}
