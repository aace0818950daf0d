import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { renderRecord, type RenderOptions } from '../../src/view/render-line.js';
import { SessionContext } from '../../src/view/session-context.js';
import { formatClock } from '../../src/view/format.js';

const FIXTURE = new URL('../fixtures/logs/everything.jsonl', import.meta.url);
const records: LogRecord[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LogRecord);

function rec(session: string, seq: number): LogRecord {
  const r = records.find((x) => x.session === session && x.seq === seq);
  if (!r) throw new Error(`no record ${session}#${seq}`);
  return r;
}

const plain: RenderOptions = { color: false, full: false };
const colored: RenderOptions = { color: 1, full: false };

const ESC = '\x1b';
/** Every ESC in colored output must open an SGR sequence (chalk's colours), nothing else. */
function onlySgr(s: string): boolean {
  return s.replace(/\x1b\[[0-9;]*m/g, '').includes(ESC) === false;
}
function stripSgr(s: string): string {
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}

describe('renderRecord, per kind', () => {
  it('request: time, seq, arrow, kind, id, method and tool name', () => {
    const r = rec('s1-aaaa', 9);
    const line = renderRecord(r, plain);
    expect(line.startsWith(formatClock(r.time))).toBe(true);
    expect(line).toContain('#9');
    expect(line).toContain('→');
    expect(line).toMatch(/ req +2 +tools\/call echo/);
    expect(line).not.toContain(ESC);
    const c = renderRecord(r, colored);
    expect(c).toContain(ESC);
    expect(onlySgr(c)).toBe(true);
    expect(stripSgr(c)).toBe(line);
  });

  it('response: latency and the request it answers, aligned with its request', () => {
    const req = renderRecord(rec('s1-aaaa', 9), plain);
    const res = renderRecord(rec('s1-aaaa', 10), plain);
    expect(res).toContain('←');
    expect(res).toMatch(/ res +2 +tools\/call echo/);
    expect(res).toContain('3.00ms');
    expect(res).toContain('↩ #9');
    expect(res.indexOf('tools/call')).toBe(req.indexOf('tools/call'));
    expect(res.indexOf(' 2 ')).toBe(req.indexOf(' 2 '));
    // answers with short methods put their latency in the same column
    const other = renderRecord(rec('s1-aaaa', 8), plain);
    expect(other.indexOf('ms ↩')).toBe(res.indexOf('ms ↩'));
    expect(renderRecord(rec('s1-aaaa', 10), colored)).toMatch(/\x1b\[32m/); // green latency
  });

  it('string ids are quoted, numeric ids bare', () => {
    expect(renderRecord(rec('s1-aaaa', 11), plain)).toContain('"call-3"');
    expect(renderRecord(rec('s1-aaaa', 7), plain)).toMatch(/ req +1 +tools\/list/);
  });

  it('error: red, with code and message, uri as target', () => {
    const r = rec('s1-aaaa', 14);
    const line = renderRecord(r, plain);
    expect(line).toMatch(/ err +4 +resources\/read demo:\/\/resource\/static\/1/);
    expect(line).toContain('1250ms');
    expect(line).toContain('↩ #13');
    expect(line).toContain('✗ error -32002 Resource not found');
    const c = renderRecord(r, colored);
    expect(c).toMatch(/\x1b\[31m[^\x1b]*-32002 Resource not found/);
    expect(onlySgr(c)).toBe(true);
  });

  it('underlines the tool name, not the space before it', () => {
    const c = renderRecord(rec('s1-aaaa', 12), colored);
    expect(c).toMatch(/\x1b\[4mget-sum/);
    expect(c).not.toMatch(/\x1b\[4m /);
  });

  it('isError results are marked with their text', () => {
    const line = renderRecord(rec('s1-aaaa', 12), plain);
    expect(line).toContain('tools/call get-sum');
    expect(line).toContain('✗ isError: missing argument b');
    expect(renderRecord(rec('s1-aaaa', 12), colored)).toMatch(/\x1b\[31m[^\x1b]*isError/);
  });

  it('prompts/get shows the prompt name', () => {
    expect(renderRecord(rec('s1-aaaa', 15), plain)).toContain('prompts/get simple_prompt');
  });

  it('notifications: progress summary and the request it refers to', () => {
    const line = renderRecord(rec('s1-aaaa', 16), plain);
    expect(line).toMatch(/ notif +notifications\/progress 1\/3 working/);
    expect(line).toContain('↪ #15');
    const log = renderRecord(rec('s1-aaaa', 21), plain);
    expect(log).toContain('notifications/message info [everything] periodic log message');
  });

  it('findings: yellow, with text and code', () => {
    const r = rec('s1-aaaa', 20);
    const line = renderRecord(r, plain);
    expect(line).toContain('⚠ response to id 99, which no pending request has [unknown-id]');
    expect(renderRecord(r, colored)).toMatch(/\x1b\[33m[^\x1b]*response to id 99/);
  });

  it('stderr: dimmed and labelled', () => {
    const r = rec('s1-aaaa', 17);
    const line = renderRecord(r, plain);
    expect(line).toMatch(/! stderr +server warming up the cache/);
    const c = renderRecord(r, colored);
    expect(c).toMatch(/\x1b\[2m[^\x1b]*server warming up the cache/);
  });

  it('invalid lines: the text and the reason', () => {
    const line = renderRecord(rec('s1-aaaa', 18), plain);
    expect(line).toMatch(/ invalid +Listening on stdio!/);
    expect(line).toContain('not JSON on stdout; hosts will reject it [stdout-not-json]');
    expect(renderRecord(rec('s1-aaaa', 18), colored)).toMatch(/\x1b\[31m/);
  });

  it('batch: its elements in one line, and one per line with --full', () => {
    const line = renderRecord(rec('s1-aaaa', 22), plain);
    expect(line).toContain('[2] req 6 ping, notif notifications/roots/list_changed');
    expect(line).toContain('[batch-not-allowed]');
    const full = renderRecord(rec('s1-aaaa', 22), { color: false, full: true });
    expect(full).toContain('· req 6 ping');
    expect(full).toContain('· notif notifications/roots/list_changed');
  });

  it('events: spawn, lifecycle, closes, signal, kill, exit', () => {
    expect(renderRecord(rec('s1-aaaa', 2), plain)).toMatch(/• event +server started, pid 4343/);
    const lc = renderRecord(rec('s1-aaaa', 5), plain);
    expect(lc).toContain('protocol 2025-06-18');
    expect(lc).toContain('client test-client 1.0.0');
    expect(lc).toContain('server example-servers/everything 1.0.0');
    expect(renderRecord(rec('s1-aaaa', 24), plain)).toContain('host closed stdin');
    expect(renderRecord(rec('s1-aaaa', 26), plain)).toContain('server exited with code 0');
    expect(renderRecord(rec('s2-bbbb', 7), plain)).toContain('received SIGTERM');
    expect(renderRecord(rec('s2-bbbb', 8), plain)).toContain('sent SIGKILL (did not exit within 2000 ms)');
    const killed = renderRecord(rec('s2-bbbb', 9), colored);
    expect(stripSgr(killed)).toContain('server killed by SIGKILL');
    expect(killed).toMatch(/\x1b\[31m/);
  });

  it('session start and end separators: server name, pid, command, exit code, unanswered requests', () => {
    const ctx = new SessionContext();
    const out: string[] = [];
    for (const r of records) out.push(renderRecord(r, { ...plain, session: ctx.observe(r) }));
    const start = out[0]!;
    expect(start).toMatch(/^──── /);
    expect(start).toContain('session s1-aaaa');
    expect(start).toContain('everything');
    expect(start).toContain('mcp-tap pid 4242');
    expect(start).toContain('node dist/index.js stdio');
    const end1 = out[26]!;
    expect(end1).toContain('end of session s1-aaaa');
    expect(end1).toContain('everything');
    expect(end1).toContain('exit 0');
    expect(end1).toContain('1 unanswered: tools/call 7 #23');
    const end2 = out[out.length - 1]!;
    expect(end2).toContain('end of session s2-bbbb');
    expect(end2).toContain('killed by SIGKILL');
    // the whole session, colour off: no escape byte anywhere
    expect(out.join('\n')).not.toContain(ESC);
  });

  it('--full: the body as indented JSON, long strings shortened', () => {
    const r: LogRecord = { ...rec('s1-aaaa', 10) };
    r.msg = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x'.repeat(5000) }] } };
    const full = renderRecord(r, { color: false, full: true });
    const lines = full.split('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(full).toContain('"jsonrpc": "2.0"');
    expect(full).toMatch(/\n +"content": \[/);
    expect(full).toContain('… (5000 chars)');
    expect(full.length).toBeLessThan(2000);
    // without --full, no body
    expect(renderRecord(r, plain).split('\n')).toHaveLength(1);
  });

  it('respects the width for previews of long stderr lines', () => {
    const r: LogRecord = { ...rec('s1-aaaa', 17), raw: 'y'.repeat(1000) };
    const line = renderRecord(r, { color: false, full: false, width: 100 });
    expect(line.length).toBeLessThanOrEqual(100);
    expect(line.endsWith('…')).toBe(true);
    // not a terminal (no width): the whole line, up to a generous cap
    expect(renderRecord(r, plain)).toContain('y'.repeat(1000).slice(0, 990));
    expect(renderRecord({ ...r, raw: 'y'.repeat(5000) }, plain).length).toBeLessThan(1100);
  });
});

describe('renderRecord, tolerance', () => {
  const future: LogRecord[] = readFileSync(new URL('../fixtures/logs/future.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogRecord];
      } catch {
        return [];
      }
    });

  it('HTTP mode events: exchange outcome, GET streams and resumption, refusals, upstream failures', () => {
    const base = { v: 1, time: Date.UTC(2026, 0, 1), session: 'h1', seq: 3, from: 'proxy', kind: 'event' } as const;
    const http = { method: 'GET', path: '/mcp', status: 200, stream: 'get' };
    expect(renderRecord({ ...base, event: 'http', http: { method: 'POST', path: '/mcp', status: 202 } } as LogRecord, plain)).toMatch(/• event +POST \/mcp 202$/);
    expect(renderRecord({ ...base, event: 'http', http: { ...http, eventId: 'ev-16' }, resumes: 23 } as LogRecord, plain)).toMatch(/GET \/mcp 200 · stream open · Last-Event-ID ev-16 · resumes after #23$/);
    expect(renderRecord({ ...base, event: 'http', http, closed: true } as LogRecord, plain)).toMatch(/GET \/mcp 200 · stream closed$/);
    expect(renderRecord({ ...base, event: 'http', http: { method: 'POST', path: '/mcp', status: 401 }, challenge: 'Bearer realm="x"' } as LogRecord, plain)).toMatch(/POST \/mcp 401 · challenge Bearer realm="x"$/);
    expect(renderRecord({ ...base, event: 'refused', http: { method: 'POST', path: '/mcp', status: 403 }, reason: 'Host "evil" is not a loopback name' } as LogRecord, plain)).toMatch(/refused POST \/mcp 403: Host "evil" is not a loopback name$/);
    expect(renderRecord({ ...base, event: 'upstream-error', http: { method: 'POST', path: '/mcp', status: 502 }, error: 'upstream x unreachable' } as LogRecord, plain)).toMatch(/POST \/mcp 502: upstream x unreachable$/);
    expect(renderRecord({ ...base, event: 'http', http: 'nonsense' } as LogRecord, plain)).toMatch(/\? \?$/);
  });

  it('shows newer versions, unknown kinds and unknown events as far as understood', () => {
    const out = future.map((r) => renderRecord(r, plain));
    expect(out[1]).toContain('tools/call weather');
    expect(out[2]).toContain('telepathy');
    expect(out[2]).toContain('mind/read');
    expect(out[3]).toContain('quantum-leap');
    expect(out[3]).toContain('"where":"elsewhere"');
    expect(out[3]).toContain('something new [future-finding]');
    expect(out[4]).toContain('↩ #2');
  });

  it('does not throw on records missing fields or with wrong types', () => {
    const odd = [
      {},
      { kind: 'response' },
      { kind: 'error', msg: 'not an object' },
      { kind: 'event', event: 'end', pending: 'x' },
      { kind: 'event', event: 'start', args: 'no-array' },
      { kind: 'batch', items: [null, 1, { kind: 'request' }] },
      { kind: 'request', notes: [null, { code: 1, text: 2 }], id: { weird: true }, time: 'yesterday' },
    ] as unknown as LogRecord[];
    for (const r of odd) {
      expect(() => renderRecord(r, plain)).not.toThrow();
      expect(() => renderRecord(r, { color: 3, full: true })).not.toThrow();
    }
  });

  it('falls back on the message for method, id and target when the record lacks them', () => {
    const r = { v: 1, time: 0, session: 'x', seq: 1, from: 'client', kind: 'request', msg: { jsonrpc: '2.0', id: 9, method: 'resources/read', params: { uri: 'file:///a' } } } as LogRecord;
    expect(renderRecord(r, plain)).toMatch(/ req +9 +resources\/read file:\/\/\/a/);
  });
});
