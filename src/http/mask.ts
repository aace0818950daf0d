/**
 * Secrets in HTTP metadata, masked at capture (pure): the log never holds an Mcp-Session-Id, a token, a
 * cookie or a query value in clear. A session id becomes a short fingerprint, so records of one session
 * still read as one, without the value that would let someone take the session over.
 */
import { createHash } from 'node:crypto';
import { basicSecrets } from './basic-auth.js';
import { querySecrets, urlSpellings } from './query-secrets.js';

/** Masks of the session ids seen last: every exchange of a session names its id several times. */
const recentMasks = new Map<string, string>();
const MAX_RECENT_MASKS = 256;

/** `[REDACTED:mcp-session-id:1a2b3c4d]`: the same id gives the same mask within and across logs. */
export function maskSessionId(id: string): string {
  let mask = recentMasks.get(id);
  if (mask === undefined) {
    mask = `[REDACTED:mcp-session-id:${createHash('sha256').update(id).digest('hex').slice(0, 8)}]`;
    if (recentMasks.size >= MAX_RECENT_MASKS) recentMasks.clear();
    recentMasks.set(id, mask);
  }
  return mask;
}

/** A path with each query value masked (`/cb?code=…&state=…` → `/cb?code=[REDACTED:query]&state=[REDACTED:query]`). */
export function maskQuery(pathAndQuery: string): string {
  const hash = pathAndQuery.indexOf('#');
  const noFragment = hash < 0 ? pathAndQuery : pathAndQuery.slice(0, hash);
  const q = noFragment.indexOf('?');
  if (q < 0) return noFragment;
  const params = noFragment
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? p : `${p.slice(0, eq)}=[REDACTED:query]`;
    });
  return `${noFragment.slice(0, q)}?${params.join('&')}`;
}

const AUTH_MARK = '[REDACTED:authorization]';
const COOKIE_MARK = '[REDACTED:cookie]';
const HEADER_MARK = '[REDACTED:header]';

/** Header names whose values are URLs (their query may hold a code or a token). */
const URL_HEADERS = new Set(['location', 'content-location', 'referer', 'link']);
/** Names that look secret but carry protocol facts. */
const PLAIN_HEADERS = new Set(['www-authenticate', 'mcp-protocol-version', 'last-event-id', 'accept', 'content-type', 'content-length', 'cache-control', 'mcp-method', 'mcp-name']);
const SECRET_WORDS = /token|secret|passw|api-?key|apikey|auth|credential|cookie|session|signature|private/;

/** `Bearer abc` → `Bearer [REDACTED:authorization]`: the scheme says what kind of credential was sent. */
function maskCredentials(value: string): string {
  const m = /^\s*([A-Za-z][A-Za-z0-9._~+/-]*)\s+\S/.exec(value);
  return m !== null ? `${m[1]} ${AUTH_MARK}` : AUTH_MARK;
}

/** `a=1; b=2` → `a=[REDACTED:cookie]; b=[REDACTED:cookie]`; a cookie without a name (`Cookie: abc`) is all value. */
function maskCookie(value: string): string {
  return value
    .split(';')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq >= 0) return `${part.slice(0, eq)}=${COOKIE_MARK}`;
      return part.trim() === '' ? part : `${/^\s*/.exec(part)![0]}${COOKIE_MARK}`;
    })
    .join(';');
}

/** `id=xyz; Path=/; HttpOnly` → `id=[REDACTED:cookie]; Path=/; HttpOnly`: the attributes say how it was set. */
function maskSetCookie(value: string): string {
  const semi = value.indexOf(';');
  const first = semi < 0 ? value : value.slice(0, semi);
  const eq = first.indexOf('=');
  const masked = eq < 0 ? COOKIE_MARK : `${first.slice(0, eq)}=${COOKIE_MARK}`;
  return semi < 0 ? masked : masked + value.slice(semi);
}

/** What a header's value is, by the header's name (lower case): how it is masked and which of it is secret. */
type HeaderKind = 'credentials' | 'cookie' | 'set-cookie' | 'session-id' | 'url' | 'plain' | 'secret';

function headerKind(n: string): HeaderKind {
  if (n === 'authorization' || n === 'proxy-authorization') return 'credentials';
  if (n === 'cookie') return 'cookie';
  if (n === 'set-cookie') return 'set-cookie';
  if (n === 'mcp-session-id') return 'session-id';
  if (URL_HEADERS.has(n)) return 'url';
  if (PLAIN_HEADERS.has(n) || n.startsWith('mcp-param-')) return 'plain';
  return SECRET_WORDS.test(n) ? 'secret' : 'plain';
}

/** Header names in a marker are kept this short (a name is the client's choice). */
const MAX_MARKER_NAME = 64;

/**
 * `[REDACTED:header:x-api-key]`: what a secret-named header's value becomes where a body repeats it. It
 * names the header, never the value; the name kept JSON-safe and short.
 */
export function headerMarker(name: string): string {
  return `[REDACTED:header:${name.toLowerCase().slice(0, MAX_MARKER_NAME).replace(/[^a-z0-9_.-]/g, '?')}]`;
}

/** One header's value as the log may keep it. */
export function maskHeaderValue(name: string, value: string): string {
  switch (headerKind(name.toLowerCase())) {
    case 'credentials':
      return maskCredentials(value);
    case 'cookie':
      return maskCookie(value);
    case 'set-cookie':
      return maskSetCookie(value);
    case 'session-id':
      return maskSessionId(value);
    case 'url':
      return maskQuery(value);
    case 'secret':
      return HEADER_MARK;
    case 'plain':
      return value;
  }
}

/** A raw header list ([name, value, …]) as `[name, value]` pairs with every secret masked; order and case kept. */
export function maskHeaders(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, maskHeaderValue(raw[i]!, raw[i + 1]!)]);
  return out;
}

/** The URLs a URL header holds: `Link` lists them in `<…>` (no `<` inside: one pass, whatever the value), the others are one. */
function urlsOf(value: string): string[] {
  const linked = [...value.matchAll(/<([^<>]*)>/g)].map((m) => m[1]!);
  return linked.length > 0 ? linked : [value];
}

/** `[scheme, credential]` of an Authorization value; no scheme and its trimmed self when it has none. Linear. */
function credentialOf(value: string): [string | null, string] {
  const v = value.trim();
  const m = /^([A-Za-z][A-Za-z0-9._~+/-]*)\s+(\S.*)$/.exec(v);
  return m !== null ? [m[1]!, m[2]!] : [null, v];
}

/**
 * The spellings of secret query values one request or response head adds at most (its URL and its URL
 * headers together): a `Link` of hundreds of signed URLs would otherwise push every credential out of
 * the bounded set the log masks (env-mask.ts), and cost a relearn each.
 */
export const MAX_URL_SECRETS = 16;

/**
 * The secret values of a request or response's head, so the log can mask them wherever else they appear
 * (a body that echoes one): the credential of Authorization (without its scheme; a Basic one also
 * decoded, basic-auth.ts), each cookie's value (also without its quotes), the session id, the whole
 * value of every other secret-named header (X-Api-Key, X-Auth-Token…), each also as a URL spells it;
 * and the secret query values of `url` (a request's) and the URL headers (query-secrets.ts), at most
 * MAX_URL_SECRETS of them. Those and the cookies come first: the credentials, session id and secret
 * headers are then the most recently seen. The masker leaves out values too short to mask safely
 * (env-mask.ts).
 */
export function headerSecrets(raw: readonly string[], url?: string): Array<{ value: string; marker: string }> {
  const fromUrls: Array<{ value: string; marker: string }> = [];
  const takeUrl = (u: string): void => {
    if (fromUrls.length < MAX_URL_SECRETS) fromUrls.push(...querySecrets(u).slice(0, MAX_URL_SECRETS - fromUrls.length));
  };
  if (url !== undefined) takeUrl(url);
  const cookies: Array<{ value: string; marker: string }> = [];
  const out: Array<{ value: string; marker: string }> = [];
  const add = (value: string, marker: string, into = out): void => {
    if (value !== '') for (const s of urlSpellings(value)) into.push({ value: s, marker });
  };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i]!.toLowerCase();
    const v = raw[i + 1]!;
    const kind = headerKind(n);
    if (kind === 'credentials') {
      const [scheme, credential] = credentialOf(v);
      add(credential, AUTH_MARK);
      if (scheme !== null && scheme.toLowerCase() === 'basic') for (const s of basicSecrets(credential)) add(s, AUTH_MARK);
    } else if (kind === 'cookie' || kind === 'set-cookie') {
      const parts = kind === 'cookie' ? v.split(';') : [v.split(';')[0]!];
      for (const p of parts) {
        const value = p.slice(p.indexOf('=') + 1).trim();
        add(value, COOKIE_MARK, cookies);
        // a quoted cookie value (RFC 6265 allows one) reads without its quotes once parsed
        if (value.length > 2 && value.startsWith('"') && value.endsWith('"')) add(value.slice(1, -1), COOKIE_MARK, cookies);
      }
    } else if (kind === 'session-id') add(v, maskSessionId(v));
    else if (kind === 'secret') add(v.trim(), headerMarker(n));
    else if (kind === 'url') for (const u of urlsOf(v)) takeUrl(u);
  }
  // the many first (URLs' query values, cookies), the credentials, session id and secret headers last:
  // the most recently seen, they stay in the bounded set whatever else the head holds
  return [...fromUrls, ...cookies, ...out];
}

/** A parsed `WWW-Authenticate` challenge: the scheme and the parameters RFC 9728 and RFC 6750 define. */
export interface Challenge {
  scheme: string;
  resourceMetadata?: string;
  scope?: string;
  error?: string;
  errorDescription?: string;
  realm?: string;
}

/**
 * The first challenge of a `WWW-Authenticate` value (`Bearer resource_metadata="…", scope="a b"`): quoted
 * strings with `\` escapes or tokens, as RFC 9110 §11.2 spells auth-params. Null when it has no scheme.
 */
export function parseChallenge(text: string): Challenge | null {
  const m = /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?:\s+|$)/.exec(text);
  if (m === null) return null;
  const out: Challenge = { scheme: m[1]! };
  const re = /\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(,|$)/y;
  re.lastIndex = m[0].length;
  const seen = new Set<string>();
  for (;;) {
    const start = re.lastIndex;
    const p = re.exec(text);
    if (p === null || re.lastIndex === start) break;
    const name = p[1]!.toLowerCase();
    // a second scheme starts where a token is not followed by `=`; the first challenge is the one kept
    if (seen.has(name)) break;
    seen.add(name);
    const value = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3]!;
    if (name === 'resource_metadata') out.resourceMetadata = maskQuery(value);
    else if (name === 'scope') out.scope = value;
    else if (name === 'error') out.error = value;
    else if (name === 'error_description') out.errorDescription = value;
    else if (name === 'realm') out.realm = value;
    if (re.lastIndex >= text.length) break;
  }
  return out;
}
