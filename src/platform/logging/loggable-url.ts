/** Path segments that are credentials themselves (capability links): never logged. */
const SECRET_PATH_SEGMENTS = [/(\/shop\/checkout\/)[^/?#]+/];

/** The request URL as logs may show it: capability tokens in the path replaced. */
export function loggableUrl(url: string | undefined): string | undefined {
  return url && SECRET_PATH_SEGMENTS.reduce((safe, pattern) => safe.replace(pattern, '$1[redacted]'), url);
}
