/**
 * Secrets in HTTP metadata, masked at capture (pure): the log never holds an Mcp-Session-Id, a token or
 * a query value in clear. A session id becomes a short fingerprint, so records of one session still
 * read as one, without the value that would let someone take the session over.
 */
import { createHash } from 'node:crypto';

/** `[REDACTED:mcp-session-id:1a2b3c4d]`: the same id gives the same mask within and across logs. */
export function maskSessionId(id: string): string {
  return `[REDACTED:mcp-session-id:${createHash('sha256').update(id).digest('hex').slice(0, 8)}]`;
}

/** A path with each query value masked (`/cb?code=…&state=…` → `/cb?code=[REDACTED:query]&state=[REDACTED:query]`). */
export function maskQuery(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return pathAndQuery;
  const params = pathAndQuery
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? p : `${p.slice(0, eq)}=[REDACTED:query]`;
    });
  return `${pathAndQuery.slice(0, q)}?${params.join('&')}`;
}
