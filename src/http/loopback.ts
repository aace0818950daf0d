/**
 * DNS-rebinding guard (pure): a page on another site can make a browser send requests to 127.0.0.1, but
 * its Host (and Origin) name that site. Like the MCP SDK's own servers, only loopback names pass; an
 * Origin of `null` does not (any site can send it from a sandboxed iframe).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower-cased; null when malformed. */
export function hostName(hostHeader: string): string | null {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const close = h.indexOf(']');
    if (close < 0) return null;
    const rest = h.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    return h.slice(0, close + 1);
  }
  const colon = h.indexOf(':');
  if (colon < 0) return h;
  if (!/^\d{1,5}$/.test(h.slice(colon + 1))) return null;
  return h.slice(0, colon);
}

/** Why a request must be refused (a one-line reason), or null when Host and Origin are loopback names. */
export function refuseReason(host: string | undefined, origin: string | undefined): string | null {
  if (host === undefined) return 'the request has no Host header';
  const name = hostName(host);
  if (name === null || !LOOPBACK_HOSTS.has(name)) return `Host ${JSON.stringify(host)} is not a loopback name`;
  if (origin !== undefined) {
    // `null` is the opaque origin of a sandboxed iframe or a data: page, which any site can make
    if (origin === 'null') return 'Origin "null" is not a loopback origin';
    let originHost: string;
    try {
      originHost = new URL(origin).hostname.toLowerCase();
    } catch {
      return `Origin ${JSON.stringify(origin)} is not a URL`;
    }
    if (!LOOPBACK_HOSTS.has(originHost)) return `Origin ${JSON.stringify(origin)} is not a loopback origin`;
  }
  return null;
}

/**
 * Why a request is malformed for a reverse proxy (a one-line reason, answered 400), or null: a target
 * that is not a path (absolute form `http://other.example/…` names another host to whatever reads it
 * next), or more than one Host line (only the first is checked and replaced; RFC 9112 §3.2 asks for 400).
 */
export function malformedReason(target: string | undefined, rawHeaders: readonly string[]): string | null {
  if (target === undefined || !target.startsWith('/')) return `the request target ${JSON.stringify(target ?? '')} is not a path`;
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  return hosts > 1 ? `the request has ${hosts} Host header lines` : null;
}
