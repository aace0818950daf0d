import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LogRecord } from '../../src/log/record.js';
import { renderRecord } from '../../src/view/render-line.js';
import { SessionContext } from '../../src/view/session-context.js';

/** Everything a hostile server could use to move the cursor, retitle the terminal or hide text. */
const EVIL = '\u2028\u2066A\x1b[2J\x1b[1;1H\x1b]0;pwned\x07B\rC\bD\x00E\x7fF\u009b31mG\u0085H\tI\nJ\u202eK';

const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function hostileSession(s: string): LogRecord[] {
  const base = { v: 1, session: s, time: 1767258000000 };
  return [
    { ...base, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: s, command: s, args: [s, s], pid: 1 },
    { ...base, seq: 2, from: 'client', kind: 'request', id: s, method: s, target: s, msg: { jsonrpc: '2.0', id: s, method: s, params: { name: s, [s]: s } } },
    { ...base, seq: 3, from: 'server', kind: 'response', id: s, method: 'tools/call', target: s, reqSeq: 2, ms: 1, isError: true, msg: { jsonrpc: '2.0', id: s, result: { isError: true, content: [{ type: 'text', text: s }] } } },
    { ...base, seq: 4, from: 'server', kind: 'error', id: s, method: s, reqSeq: 2, ms: 1, msg: { jsonrpc: '2.0', id: s, error: { code: s, message: s, data: s } } },
    { ...base, seq: 5, from: 'server', kind: 'notification', method: 'notifications/message', msg: { jsonrpc: '2.0', method: 'notifications/message', params: { level: s, logger: s, data: s } } },
    { ...base, seq: 6, from: 'server', kind: 'notification', method: 'notifications/progress', msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: s, progress: s, total: s, message: s } } },
    { ...base, seq: 7, from: 'server', kind: 'stderr', raw: s },
    { ...base, seq: 8, from: 'server', kind: 'invalid', raw: s, notes: [{ code: s, text: s }] },
    { ...base, seq: 9, from: 'client', kind: 'batch', items: [{ kind: 'request', id: s, method: s }], msg: [{ id: s, method: s }] },
    { ...base, seq: 10, from: 'proxy', kind: 'event', event: 'lifecycle', protocolVersion: s, clientInfo: { name: s, version: s }, serverInfo: { name: s, version: s } },
    { ...base, seq: 11, from: 'proxy', kind: 'event', event: s as never, [s]: s },
    { ...base, seq: 12, from: 'proxy', kind: 'event', event: 'exit', code: null, signal: s },
    { ...base, seq: 13, from: 'server', kind: s as never, method: s, id: s },
    { ...base, seq: 14, from: 'proxy', kind: 'event', event: 'end', pending: [{ from: 'client', id: s, method: s, seq: 2 }] },
  ] as LogRecord[];
}

function renderAll(records: LogRecord[], color: 0 | 1 | 3, full: boolean, width?: number): string {
  const ctx = new SessionContext();
  return records.map((r) => renderRecord(r, { color, full, width, session: ctx.observe(r) })).join('\n');
}

describe('no server-controlled byte reaches the terminal unescaped', () => {
  it('colour off: no control character at all (besides our own newlines)', () => {
    for (const full of [false, true]) {
      const out = renderAll(hostileSession(EVIL), 0, full);
      for (const line of out.split('\n')) expect(line).not.toMatch(CONTROL);
      expect(out).toContain('pwned'); // shown, but harmless
    }
  });

  it('colour on: every ESC starts an SGR sequence', () => {
    for (const level of [1, 3] as const) {
      for (const full of [false, true]) {
        const out = renderAll(hostileSession(EVIL), level, full, 100);
        const rest = out.replace(/\x1b\[[0-9;]*m/g, '');
        for (const line of rest.split('\n')) expect(line).not.toMatch(CONTROL);
      }
    }
  });

  it('holds for arbitrary strings in every field (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), (s, full) => {
        const out = renderAll(hostileSession(s), 1, full).replace(/\x1b\[[0-9;]*m/g, '');
        return out.split('\n').every((line) => !CONTROL.test(line));
      }),
      { numRuns: 200 },
    );
  });
});
