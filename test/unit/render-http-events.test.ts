/**
 * tail's words for HTTP mode (issue 33): a sign-in as one chain, a changed session id, an exchange
 * whose body was not decoded, a resumption; exchanges with nothing to say are left out of the human
 * view (every reader's rule), sign-ins that were not accepted and upstream failures count as problems.
 */
import { describe, expect, it } from 'vitest';
import { renderRecord } from '../../src/view/render-line.js';
import { buildFilter, isProblem } from '../../src/view/filters.js';
import { isQuietExchange } from '../../src/log/http-records.js';
import type { LogRecord } from '../../src/log/record.js';

const ev = (fields: Record<string, unknown>): LogRecord => ({ v: 1, time: 1796032600000, session: 's', seq: 7, from: 'proxy', kind: 'event', level: 30, ...fields }) as LogRecord;
const line = (r: LogRecord) => renderRecord(r, { color: false, full: false, width: 200 });

const chain = [
  { step: 'challenge', status: 401, path: '/mcp', ms: 0 },
  { step: 'resource-metadata', status: 200, path: '/.well-known/oauth-protected-resource/mcp', ms: 4 },
  { step: 'as-metadata', status: 200, path: '/.well-known/oauth-authorization-server', ms: 8 },
  { step: 'token', status: 200, path: '/token', ms: 30, grant: 'authorization_code' },
  { step: 'retry', status: 200, path: '/mcp', ms: 42.5 },
];

describe('tail: HTTP mode events', () => {
  it('a sign-in is one chain; one that failed says so and counts as a problem', () => {
    const ok = ev({ event: 'auth', chain, ok: true, durationMs: 42.5 });
    expect(line(ok)).toMatch(/• event +sign-in 401 → resource metadata → auth server metadata → token → retry OK · 42\.5ms$/);
    expect(isProblem(ok)).toBe(false);
    const failed = ev({ event: 'auth', chain: [chain[0], { step: 'token', status: 400, path: '/token', ms: 3, grant: 'refresh_token' }, { step: 'retry', status: 401, path: '/mcp', ms: 5 }], ok: false, durationMs: 5 });
    expect(line(failed)).toMatch(/sign-in 401 → token \(refresh\) 400 → retry 401 · 5\.00ms$/);
    expect(isProblem(failed)).toBe(true);
    expect(line(ev({ event: 'auth', chain: chain.slice(0, 2), ok: false, incomplete: true, durationMs: 4 }))).toMatch(/sign-in 401 → resource metadata · no retry before mcp-tap stopped/);
  });

  it('a changed session id, a resumption, a 405 and an exchange not decoded', () => {
    const http = { method: 'POST', path: '/mcp', status: 200, x: 4 };
    expect(line(ev({ event: 'session-id', http, sessionId: '[REDACTED:mcp-session-id:bbbbbbbb]', previous: '[REDACTED:mcp-session-id:aaaaaaaa]', reason: 're-issued' }))).toMatch(
      /POST \/mcp 200 · the server re-issued the session id: \[REDACTED:mcp-session-id:aaaaaaaa\] → \[REDACTED:mcp-session-id:bbbbbbbb\]$/,
    );
    expect(line(ev({ event: 'session-id', http, sessionId: '[x2]', previous: '[x1]', reason: 'reconnect', previousSession: 'mx-old' }))).toContain('new session after the server forgot mx-old: [x1] → [x2]');
    expect(line(ev({ event: 'http', http: { method: 'GET', path: '/mcp', status: 200, stream: 'get', eventId: 'ev-16' }, resumes: 23 }))).toMatch(/GET \/mcp 200 · stream open · Last-Event-ID ev-16 · resumes after #23$/);
    expect(line(ev({ event: 'http', http: { method: 'GET', path: '/mcp', status: 405 }, reason: 'no-get-stream' }))).toMatch(/GET \/mcp 405 · the server offers no GET stream$/);
    expect(line(ev({ event: 'http', http: { method: 'POST', path: '/token', status: 200 }, authStep: 'token', grant: 'refresh_token' }))).toMatch(/POST \/token 200 · OAuth token \(refresh_token\)$/);
    const nd = ev({ event: 'exchange', http: { method: 'POST', path: '/token', status: 200, x: 3 }, started: 0, timing: { end: 3.125 }, request: { headers: [], bytes: 10 }, notDecoded: 'not decoded: an OAuth token exchange (bodies outside MCP are never logged)' });
    expect(line(nd)).toMatch(/HTTP POST \/token 200 · 3\.13ms · not decoded: an OAuth token exchange/);
    expect(isQuietExchange(nd)).toBe(false);
  });

  it('leaves quiet exchanges out of the human view, keeps them for --json', () => {
    const quiet = ev({ event: 'exchange', http: { method: 'POST', path: '/mcp', status: 200, x: 1 }, started: 0, timing: { end: 1 }, request: { headers: [], bytes: 10 } });
    const cut = ev({ ...quiet, cut: true });
    expect(isQuietExchange(quiet)).toBe(true);
    expect(isQuietExchange(cut)).toBe(false);
    const human = buildFilter({ hideQuietExchanges: true, keepSeparators: true });
    expect([quiet, cut].filter(human)).toEqual([cut]);
    expect([quiet, cut].filter(buildFilter({}))).toEqual([quiet, cut]);
    expect(isProblem(ev({ event: 'upstream-error', http: { method: 'POST', path: '/mcp', status: 502 }, error: 'x' }))).toBe(true);
  });
});
