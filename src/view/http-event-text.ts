/**
 * HTTP mode's events as `tail` words them (pure): `POST /mcp 202`, `GET /mcp 200 · stream closed`, a
 * sign-in as one chain (`sign-in 401 → resource metadata → token → retry OK · 735 ms`), a changed
 * session id, an exchange whose body was not decoded. Wire strings go through wireText.
 */
import type { LogRecord } from '../log/record.js';
import { authChainText, type AuthLink } from '../log/auth-chain.js';
import { asObject, formatMs, shorten } from './format.js';
import { wireText } from './wire-text.js';

/** A colour for a piece of text. */
type Paint = (s: string) => string;
export interface HttpPalette {
  gray: Paint;
  yellow: Paint;
  red: Paint;
  green: Paint;
}
type Seg = [string, Paint];

const STEP_WORDS: Record<string, string> = {
  'resource-metadata': 'OAuth resource metadata',
  'as-metadata': 'OAuth auth server metadata',
  register: 'OAuth register',
  authorize: 'OAuth authorize',
  token: 'OAuth token',
};

function head(r: LogRecord): { text: string; status: number | undefined } {
  const h = asObject(r['http']) ?? {};
  const status = typeof h['status'] === 'number' ? h['status'] : undefined;
  return { text: `${wireText(h['method'] ?? '?', 10)} ${wireText(h['path'] ?? '?', 60)}${status !== undefined ? ` ${status}` : ''}`, status };
}

/** The segments of an `http`, `refused`, `upstream-error`, `exchange`, `auth` or `session-id` event. */
export function httpEventText(r: LogRecord, ev: string, c: HttpPalette, max: number): Seg[] {
  const { text: what, status } = head(r);
  switch (ev) {
    case 'refused':
      return [[shorten(`refused ${what}: ${wireText(r['reason'], max)}`, max), c.yellow]];
    case 'upstream-error':
      return [[shorten(`${what}: ${wireText(r['error'], max)}`, max), c.red]];
    case 'auth': {
      const chain = Array.isArray(r['chain']) ? (r['chain'] as AuthLink[]) : [];
      const text = `sign-in ${authChainText(chain, typeof r['omitted'] === 'number' ? r['omitted'] : 0)}${r['incomplete'] === true ? ' · no retry before mcp-tap stopped' : ''}${typeof r['durationMs'] === 'number' ? ` · ${formatMs(r['durationMs'])}` : ''}`;
      return [[shorten(wireText(text, max), max), r['ok'] === true ? c.green : c.yellow]];
    }
    case 'session-id': {
      const reason = r['reason'] === 'reconnect' ? `new session after the server forgot ${wireText(r['previousSession'] ?? 'the last one', 40)}` : 'the server re-issued the session id';
      return [[shorten(`${what} · ${reason}: ${wireText(r['previous'], 60)} → ${wireText(r['sessionId'], 60)}`, max), c.yellow]];
    }
    case 'exchange': {
      const t = asObject(r['timing']);
      const parts = [what];
      if (t !== undefined && typeof t['end'] === 'number') parts.push(formatMs(t['end']));
      if (typeof r['notDecoded'] === 'string') parts.push(wireText(r['notDecoded'], 200));
      if (r['cut'] === true) parts.push('cut off');
      if (typeof r['error'] === 'string') parts.push(wireText(r['error'], 120));
      return [[shorten(`HTTP ${parts.join(' · ')}`, max), typeof r['error'] === 'string' ? c.red : typeof r['notDecoded'] === 'string' || r['cut'] === true ? c.yellow : c.gray]];
    }
    default:
      break;
  }
  const h = asObject(r['http']) ?? {};
  const more: string[] = [];
  if (typeof r['authStep'] === 'string') more.push(`${STEP_WORDS[r['authStep']] ?? wireText(r['authStep'], 30)}${typeof r['grant'] === 'string' ? ` (${wireText(r['grant'], 40)})` : ''}`);
  if (typeof h['stream'] === 'string' && h['method'] === 'GET') more.push(r['closed'] === true ? 'stream closed' : 'stream open');
  if (typeof h['eventId'] === 'string') more.push(`Last-Event-ID ${wireText(h['eventId'], 40)}`);
  if (typeof r['resumes'] === 'number') more.push(`resumes after #${r['resumes']}`);
  if (r['endpoint'] !== undefined) more.push(`endpoint ${wireText(r['endpoint'], 60)}`);
  if (r['reason'] === 'session-not-found') more.push('session expired: the server no longer knows it');
  if (r['reason'] === 'no-get-stream') more.push('the server offers no GET stream');
  if (r['challenge'] !== undefined) more.push(`challenge ${wireText(r['challenge'], 80)}`);
  if (r['error'] !== undefined) more.push(wireText(r['error'], 80));
  const text = more.length > 0 ? `${what} · ${more.join(' · ')}` : what;
  return [[shorten(text, max), status !== undefined && status >= 400 ? c.yellow : c.gray]];
}
