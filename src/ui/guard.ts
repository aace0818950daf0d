/**
 * Who may ask the live UI anything: a request must name this server as its Host (a DNS-rebinding page
 * names its own domain), come from no other origin, and carry the token — in the URL on the first load,
 * then in a cookie bound to this port. The one request another site may make is a page load that carries
 * the token in its URL: `ui --open`'s launch file is a file:// page, so its redirect comes cross-site.
 * Pure: headers and URL in, a verdict out.
 */
import { timingSafeEqual } from 'node:crypto';

export interface GuardConfig {
  token: string;
  port: number;
}

/**
 * `query`: the token in the URL; `launch`: the same, in a page load from another site (answered with the
 * cookie and a same-origin hop to the page only); `cookie`: the token in this port's cookie.
 */
export type Verdict = { ok: true; via: 'query' | 'launch' | 'cookie' } | { ok: false; why: string };

/** The cookie carrying the token: one per port, since cookies are not told apart by port. */
export function cookieName(port: number): string {
  return `mcp-tap-ui-${port}`;
}

/** The Host values this server answers to. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether a request is a browser's load of the page itself (a top-level navigation to `/`), not a fetch, frame or image. */
function isPageLoad(req: Request, url: URL): boolean {
  return req.method === 'GET' && url.pathname === '/' && req.headers.get('sec-fetch-mode') === 'navigate' && req.headers.get('sec-fetch-dest') === 'document';
}

/** Checks Host, Origin and the token of one request. */
export function checkRequest(req: Request, cfg: GuardConfig): Verdict {
  const hosts = allowedHosts(cfg.port);
  const host = req.headers.get('host');
  if (host === null || !hosts.has(host.toLowerCase())) return { ok: false, why: 'wrong Host' };
  const origin = req.headers.get('origin');
  if (origin !== null && !hosts.has(origin.toLowerCase().replace(/^http:\/\//, ''))) return { ok: false, why: 'foreign Origin' };
  if (origin !== null && !origin.toLowerCase().startsWith('http://')) return { ok: false, why: 'foreign Origin' };
  const url = new URL(req.url);
  const byQuery = sameToken(url.searchParams.get('token') ?? undefined, cfg.token);
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return byQuery && isPageLoad(req, url) ? { ok: true, via: 'launch' } : { ok: false, why: 'cross-site request' };
  if (byQuery) return { ok: true, via: 'query' };
  if (sameToken(cookieValue(req.headers.get('cookie'), cookieName(cfg.port)), cfg.token)) return { ok: true, via: 'cookie' };
  return { ok: false, why: 'no valid token' };
}
