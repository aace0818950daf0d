/**
 * check judges legal protocol behaviour as legal: a refused discovery probe with its fallback, a stateless
 * session, a cancel that raced the answer; and a server killed by a signal nobody sent is reported.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/check/evaluate.js';
import { gatherSession } from '../../src/check/gather.js';
import { renderText } from '../../src/check/render-text.js';
import type { LogRecord } from '../../src/log/record.js';

type Rec = Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] };
const facts = (recs: Rec[]) =>
  gatherSession('x.log', 's', recs.map((r, i) => ({ record: { v: 1, time: 1000 + i * 10, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 1 })));
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const END: Rec[] = [
  { from: 'proxy', kind: 'event', event: 'stdin-closed' },
  { from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null },
  { from: 'proxy', kind: 'event', event: 'end', pending: [] },
];

/** Python SDK 2.x / fastmcp 4: probe, -32601 from an older server, fallback to initialize answered with an older version. */
const PROBE_FALLBACK: Rec[] = [
  { from: 'proxy', kind: 'event', event: 'start', name: 'old', command: 'python', args: ['srv.py'], pid: 7 },
  { from: 'client', kind: 'request', id: 0, method: 'server/discover', msg: { jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: META } } },
  { from: 'server', kind: 'error', id: 0, method: 'server/discover', reqSeq: 2, ms: 1, msg: { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } } },
  { from: 'client', kind: 'request', id: 1, method: 'initialize' },
  { from: 'server', kind: 'response', id: 1, method: 'initialize', reqSeq: 4, ms: 2, msg: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'old', version: '1.0' } } } },
  { from: 'proxy', kind: 'event', event: 'lifecycle', era: 'handshake', protocolVersion: '2025-06-18', offeredVersion: '2025-11-25' },
  ...END,
];

describe('check on legal sessions', () => {
  it('a discovery probe refused with -32601 and the fallback to initialize pass, also with --fail-on errors', () => {
    for (const failOn of [undefined, ['errors', 'findings', 'unanswered'] as const]) {
      const r = evaluate(facts(PROBE_FALLBACK), failOn ? { failOn: [...failOn] } : {});
      expect(r.passed).toBe(true);
      expect(r.problems).toEqual([]);
      expect(r.requests.map((q) => q.status)).toEqual(['refused-probe', 'ok']);
      expect(r.summary).toMatchObject({ requests: 2, answered: 2, errors: 0, refusedProbes: 1 });
    }
    const text = renderText(evaluate(facts(PROBE_FALLBACK)));
    expect(text).toContain('  session   initialize 2.0 ms (fallback: server/discover refused (-32601))\n');
  });

  it('any other error to server/discover, and -32601 to any other method, stay errors', () => {
    const other = PROBE_FALLBACK.map((r) => (r.kind === 'error' ? { ...r, msg: { jsonrpc: '2.0', id: 0, error: { code: -32603, message: 'boom' } } } : r));
    expect(evaluate(facts(other)).problems.map((p) => p.ruleId)).toEqual(['jsonrpc-error']);
    const notProbe = PROBE_FALLBACK.map((r) => (r.method === 'server/discover' ? { ...r, method: 'tools/list' } : r));
    expect(evaluate(facts(notProbe)).problems.map((p) => p.ruleId)).toEqual(['jsonrpc-error']);
  });

  it('a stateless session reads "stateless (server/discover)", not "initialize: no answer"', () => {
    const r = evaluate(
      facts([
        { from: 'client', kind: 'request', id: 0, method: 'server/discover' },
        { from: 'server', kind: 'response', id: 0, method: 'server/discover', reqSeq: 1, ms: 1, msg: { jsonrpc: '2.0', id: 0, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } } },
        { from: 'proxy', kind: 'event', event: 'lifecycle', era: 'stateless', protocolVersion: '2026-07-28', serverInfo: { name: 'srv', version: '' } },
        ...END,
      ]),
    );
    const text = renderText(r);
    expect(text).toContain('  session   stateless (server/discover)\n');
    expect(text).not.toContain('initialize: no answer');
    expect(text).toContain('  server    srv · protocol 2026-07-28\n');
    for (const line of text.split('\n')) {
      expect(line).not.toMatch(/ $/);
      expect(line).not.toMatch(/ {2}·|· {2}/);
    }
  });

  it('a cancel that arrives after the answer leaves the request answered', () => {
    const r = evaluate(
      facts([
        { from: 'client', kind: 'request', id: 3, method: 'tools/call', target: 'slow' },
        { from: 'server', kind: 'response', id: 3, method: 'tools/call', reqSeq: 1, ms: 5, msg: { jsonrpc: '2.0', id: 3, result: { content: [] } } },
        { from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 1 },
        ...END,
      ]),
    );
    expect(r.requests.map((q) => q.status)).toEqual(['ok']);
    expect(r.summary).toMatchObject({ answered: 1, cancelled: 0 });
  });

  it('a server killed after stdin closed by a signal it was not sent is server-exit-nonzero, even after a forwarded one', () => {
    const crashed = evaluate(facts([{ from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGSEGV' }]));
    expect(crashed.problems.map((p) => p.ruleId)).toEqual(['server-exit-nonzero']);
    const other = evaluate(
      facts([
        { from: 'proxy', kind: 'event', event: 'signal', signal: 'SIGTERM' },
        { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGKILL' },
      ]),
    );
    expect(other.problems.map((p) => p.ruleId)).toEqual(['server-exit-nonzero']);
    expect(other.problems[0]!.message).toBe('the server was killed by SIGKILL, a signal it was not sent (mcp-tap sent only SIGTERM)');
    const sent = evaluate(facts([{ from: 'proxy', kind: 'event', event: 'signal', signal: 'SIGTERM' }, { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGTERM' }]));
    expect(sent.problems).toEqual([]);
    const escalated = evaluate(
      facts([
        { from: 'proxy', kind: 'event', event: 'stdin-closed' },
        { from: 'proxy', kind: 'event', event: 'kill', signal: 'SIGKILL', reason: 'timeout' },
        { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGKILL' },
      ]),
    );
    expect(escalated.problems).toEqual([]);
  });
});
