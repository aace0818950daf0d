import { describe, expect, it } from 'vitest';
import { summarizeSession } from '../../src/demo/log-summary.js';
import type { LogRecord } from '../../src/log/record.js';

let seq = 0;
const rec = (r: Partial<LogRecord>): LogRecord => ({ v: 1, time: 1000 + seq, session: 's1', seq: ++seq, from: 'proxy', kind: 'event', ...r }) as LogRecord;

describe('summarizeSession', () => {
  it('counts kinds, requests, answers; latency from ms, else from record times; id types kept apart', () => {
    seq = 0;
    const records = [
      rec({ event: 'start' }),
      rec({ from: 'client', kind: 'request', id: 1, method: 'initialize', time: 100 }),
      rec({ from: 'server', kind: 'stderr', raw: 'hello' }),
      rec({ from: 'server', kind: 'response', id: 1, method: 'initialize', reqSeq: 2, ms: 12.5, time: 112.5 }),
      rec({ from: 'client', kind: 'request', id: '1', method: 'tools/call', target: 'echo', time: 200 }),
      // no ms, no method: paired by id (string "1", not number 1) and timed from the records
      rec({ from: 'server', kind: 'response', msg: { jsonrpc: '2.0', id: '1', result: {} }, time: 203.25 }),
      rec({ from: 'server', kind: 'request', id: 7, method: 'sampling/createMessage', time: 300 }),
      rec({ from: 'client', kind: 'error', id: 7, method: 'sampling/createMessage', ms: 4, notes: [{ code: 'X1', text: 'odd' }] }),
      rec({ from: 'client', kind: 'notification', method: 'notifications/initialized', notes: [{ code: 'X1', text: 'odd' }] }),
      rec({ from: 'server', kind: 'response', id: 99, time: 400 }), // answers nothing we saw
      rec({ event: 'stdin-closed' }),
      rec({ event: 'kill', signal: 'SIGTERM' }),
      rec({ event: 'exit', code: null, signal: 'SIGTERM' }),
      rec({ event: 'gap', lost: 3 }),
      rec({ event: 'end' }),
    ];
    const s = summarizeSession(records);
    expect(s.session).toBe('s1');
    expect(s.records).toBe(records.length);
    expect(s.byKind).toEqual({ event: 6, request: 3, stderr: 1, response: 3, error: 1, notification: 1 });
    expect(s.requests).toEqual({ client: 2, server: 1 });
    expect(s.answered).toBe(3);
    expect(s.messages).toEqual({ client: 4, server: 4 });
    expect(s.stderrLines).toBe(1);
    expect(s.calls).toEqual([
      { method: 'initialize', ms: 12.5, source: 'log' },
      { method: 'tools/call', target: 'echo', ms: 3.25, source: 'times' },
      { method: 'sampling/createMessage', ms: 4, source: 'log', isError: true },
    ]);
    expect(s.notes).toEqual([{ code: 'X1', text: 'odd', count: 2 }]);
    expect(s.events).toEqual(['start', 'stdin-closed', 'kill SIGTERM', 'exit by SIGTERM', 'gap', 'end']);
    expect(s.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(s.lost).toBe(3);
    expect(s.ended).toBe(true);
  });

  it('an empty session', () => {
    const s = summarizeSession([]);
    expect(s).toMatchObject({ records: 0, answered: 0, calls: [], ended: false });
  });
});
