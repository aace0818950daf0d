/** evaluate(): session-level findings, what check --run adds, summary, ordering and warnings. */
import { describe, expect, it } from 'vitest';
import { evaluate, type RunContext } from '../../src/check/evaluate.js';
import { gatherSession } from '../../src/check/gather.js';
import type { LogRecord } from '../../src/log/record.js';

type Rec = Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] };
const facts = (recs: Rec[]) =>
  gatherSession('x.log', 's', recs.map((r, i) => ({ record: { v: 1, time: 1000 + i * 10, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 11 })));

const INIT: Rec[] = [
  { from: 'proxy', kind: 'event', event: 'start', name: 'demo', command: 'node', args: ['s.js'], pid: 7 },
  { from: 'client', kind: 'request', id: 0, method: 'initialize' },
];
const INIT_OK: Rec = { from: 'server', kind: 'response', id: 0, method: 'initialize', reqSeq: 2, ms: 12.3456, msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'demo', version: '2' } } } };
const END: Rec[] = [
  { from: 'proxy', kind: 'event', event: 'stdin-closed' },
  { from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null },
  { from: 'proxy', kind: 'event', event: 'end', pending: [] },
];
const run = (extra: Partial<RunContext> = {}): RunContext => ({ command: 'node', args: ['s.js'], timeoutMs: 1500, clientErrors: [], ...extra });
const ruleIds = (r: ReturnType<typeof evaluate>) => r.problems.map((p) => p.ruleId);

describe('evaluate', () => {
  it('passes a clean session and summarises it', () => {
    const r = evaluate(facts([...INIT, INIT_OK, ...END]));
    expect(r.passed).toBe(true);
    expect(r.problems).toEqual([]);
    expect(r.summary).toMatchObject({ requests: 1, answered: 1, unanswered: 0, initializeMs: 12.346, ended: true, tools: null });
    expect(r.server).toEqual({ name: 'demo', version: '2', protocolVersion: '2025-11-25', command: 'node', args: ['s.js'] });
    expect(r.mode).toBe('log');
    expect(r.warnings).toEqual([]);
  });

  it('reports initialize-failed for an error answer to initialize, besides jsonrpc-error', () => {
    const r = evaluate(facts([...INIT, { from: 'server', kind: 'error', id: 0, method: 'initialize', reqSeq: 2, ms: 1, msg: { jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'Unsupported protocol version' } } }, ...END]));
    expect(ruleIds(r)).toEqual(['jsonrpc-error', 'initialize-failed']);
    expect(r.problems[1]!.message).toBe('the server refused initialize with error -32602 "Unsupported protocol version"');
    expect(r.failed).toEqual(['findings']);
  });

  it('reports a non-zero exit after stdin closed, but not an exit by the signal mcp-tap forwarded', () => {
    const nonzero = evaluate(facts([...INIT, INIT_OK, { from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'exit', code: 2, signal: null }]));
    expect(ruleIds(nonzero)).toEqual(['server-exit-nonzero']);
    expect(nonzero.problems[0]).toMatchObject({ message: 'the server exited with status 2 after its stdin closed', seq: 5, line: 15 });
    const signalled = evaluate(facts([...INIT, INIT_OK, { from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'signal', signal: 'SIGTERM' }, { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGTERM' }]));
    expect(ruleIds(signalled)).toEqual([]);
    const crashed = evaluate(facts([...INIT, INIT_OK, { from: 'proxy', kind: 'event', event: 'exit', code: null, signal: 'SIGSEGV' }]));
    expect(crashed.problems[0]!.message).toBe('the server was killed by SIGSEGV while the client was still connected');
  });

  it('reports a spawn error from the log', () => {
    const r = evaluate(facts([INIT[0]!, { from: 'proxy', kind: 'event', event: 'spawn-error', error: 'command not found: "nope"' }, { from: 'proxy', kind: 'event', event: 'end' }]));
    expect(r.problems).toEqual([{ ruleId: 'server-spawn-failed', category: 'findings', message: 'command not found: "nope"', seq: 2, line: 12 }]);
  });

  it('--run: an initialize that timed out yields initialize-timeout and unanswered-request at the request', () => {
    const r = evaluate(facts([...INIT, ...END]), { run: run({ timedOut: { method: 'initialize' } }) });
    expect(ruleIds(r)).toEqual(['unanswered-request', 'initialize-timeout']);
    expect(r.problems.map((p) => p.message)).toEqual([
      'the server did not answer within 1500 ms: initialize (id 0, seq 2, from the client)',
      'the server did not answer initialize within 1500 ms',
    ]);
    expect(r.problems.every((p) => p.seq === 2 && p.line === 12)).toBe(true);
    expect(r.failed).toEqual(['findings', 'unanswered']);
    expect(r.mode).toBe('run');
  });

  it('--run: an SDK failure on a request answered with a result is sdk-rejected-answer; on an error answer it adds nothing', () => {
    const recs: Rec[] = [
      ...INIT,
      INIT_OK,
      { from: 'client', kind: 'request', id: 1, method: 'tools/list' },
      { from: 'server', kind: 'response', id: 1, method: 'tools/list', reqSeq: 4, ms: 2, msg: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'x' }] } } },
      { from: 'client', kind: 'request', id: 2, method: 'ping' },
      { from: 'server', kind: 'error', id: 2, method: 'ping', reqSeq: 6, ms: 2, msg: { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'no' } } },
      ...END,
    ];
    const r = evaluate(facts(recs), {
      run: run({ clientErrors: [{ id: 1, method: 'tools/list', message: 'invalid input' }, { id: 2, method: 'ping', message: 'MCP error -32601: no' }] }),
    });
    expect(ruleIds(r)).toEqual(['sdk-rejected-answer', 'tool-schema-not-object', 'jsonrpc-error']);
    expect(r.problems[0]).toMatchObject({ message: 'the SDK client rejected the answer to tools/list (seq 4): invalid input', seq: 5, line: 15, request: 1 });
  });

  it('--run: a call the SDK refused to send is a note, not a result', () => {
    const r = evaluate(facts([...INIT, INIT_OK, ...END]), { run: run({ notSent: [{ method: 'tools/call', target: 'research', message: 'Tool "research" requires task-based execution.' }] }) });
    expect(r.problems).toEqual([]);
    expect(r.warnings).toEqual(['tools/call "research" was not sent: the SDK client refused it (Tool "research" requires task-based execution.)']);
  });

  it('--run: no records at all (mcp-tap failed) still yields a result', () => {
    const r = evaluate(gatherSession('x.log', '', []), { run: run({ tapFailure: 'mcp-tap: cannot write the log' }) });
    expect(r.problems).toEqual([{ ruleId: 'server-spawn-failed', category: 'findings', message: 'mcp-tap: cannot write the log' }]);
    expect(r.session).toBeNull();
    expect(r.passed).toBe(false);
  });

  it('files unknown codes under findings and informational ones under info (never failing)', () => {
    const r = evaluate(facts([...INIT, INIT_OK, { from: 'server', kind: 'response', id: 9, notes: [{ code: 'future-code', text: 'new' }, { code: 'truncated', text: 'cut' }] }, ...END]), { failOn: ['findings'] });
    expect(r.problems.map((p) => [p.ruleId, p.category])).toEqual([['future-code', 'findings'], ['truncated', 'info']]);
    expect(r.failed).toEqual(['findings']);
    const infoOnly = evaluate(facts([...INIT, INIT_OK, { from: 'server', kind: 'response', id: 9, notes: [{ code: 'truncated', text: 'cut' }] }, ...END]), { failOn: ['findings'] });
    expect(infoOnly.passed).toBe(true);
  });

  it('orders results by seq and warns about a session without end record and a missing validator', () => {
    const r = evaluate(
      facts([
        ...INIT,
        INIT_OK,
        { from: 'client', kind: 'request', id: 1, method: 'tools/list' },
        { from: 'server', kind: 'response', id: 1, method: 'tools/list', reqSeq: 4, ms: 2, truncated: true, msg: { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] } } },
        { from: 'client', kind: 'request', id: 2, method: 'ping' },
        { from: 'server', kind: 'invalid', raw: 'x', notes: [{ code: 'stdout-not-json', text: 'n' }] },
      ]),
      { validator: null, alive: () => true },
    );
    expect(r.problems.map((p) => [p.ruleId, p.seq])).toEqual([['unanswered-request', 6], ['stdout-not-json', 7]]);
    expect(r.problems[0]!.message).toContain('has not answered (the session has no end record)');
    expect(r.warnings).toEqual([
      'the tools/list answer is shortened in the log (larger than --max-log-bytes): schema checks see the shortened copy',
      'JSON Schema meta-validation skipped: ajv could not be loaded (structural schema checks still ran)',
      'the session has no end record: mcp-tap is still running, so some requests may still be in flight',
    ]);
  });

  it('a session with no end record whose mcp-tap is gone: mcp-tap was killed (as Copilot CLI ends its servers)', () => {
    const seen: number[] = [];
    const r = evaluate(facts([...INIT, INIT_OK, { from: 'client', kind: 'request', id: 2, method: 'ping' }]), { alive: (pid) => (seen.push(pid), false) });
    expect(seen).toEqual([7]);
    expect(r.warnings).toContain('the session has no end record and its mcp-tap is gone: mcp-tap was killed, so requests without an answer were cut off');
  });

  it('does not count a request with id null as unanswered (the log flags it) nor a cancelled one', () => {
    const r = evaluate(facts([...INIT, INIT_OK, { from: 'client', kind: 'request', id: null, method: 'ping' }, { from: 'client', kind: 'request', id: 5, method: 'tools/call', target: 'x' }, { from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq: 5 }, ...END]));
    expect(ruleIds(r)).toEqual([]);
    expect(r.requests.map((q) => q.status)).toEqual(['ok', 'unanswered', 'cancelled']);
    expect(r.summary).toMatchObject({ unanswered: 0, cancelled: 1, answered: 1 });
  });
});
