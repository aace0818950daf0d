/**
 * The refused discovery probe (issue 27): a server/discover request from the client answered with
 * -32601 (method not found) or -32022 (unsupported protocol version) is the dual-era fallback working,
 * not an error; any other code, method or direction is an error. check reads the code from the error
 * answer's body (the gatherer asks the reader for the bodies of error answers and keeps code and
 * message), so a log read as envelopes elsewhere still gives check the code. Pure rule first, then
 * check on a log file, then the summary the exports show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCodeOf, isRefusedProbe, isRefusedProbeAnswer, mayBeRefusedProbe } from '../../src/protocol/probe.js';
import { gatherNeedsBody } from '../../src/check/gather.js';
import { checkLog } from '../../src/check/run-check.js';
import { SummaryBuilder } from '../../src/transcript/summary.js';
import type { LogRecord } from '../../src/log/record.js';
import { tempDir } from '../helpers/paths.js';

describe('isRefusedProbe', () => {
  const table: Array<[method: unknown, from: unknown, code: unknown, refused: boolean]> = [
    ['server/discover', 'client', -32601, true],
    ['server/discover', 'client', -32022, true],
    ['server/discover', 'client', -32602, false],
    ['server/discover', 'client', -32603, false],
    ['server/discover', 'client', -32021, false],
    ['server/discover', 'client', -32023, false],
    ['server/discover', 'client', '-32022', false],
    ['server/discover', 'client', undefined, false],
    ['server/discover', 'server', -32022, false],
    ['initialize', 'client', -32022, false],
    ['tools/call', 'client', -32601, false],
    ['server/Discover', 'client', -32601, false],
  ];
  for (const [method, from, code, refused] of table) {
    it(`${String(method)} from ${String(from)} answered ${String(code)}: ${refused ? 'refused probe' : 'error'}`, () => {
      expect(isRefusedProbe(method, from, code)).toBe(refused);
    });
  }

  it('reads the code of an error message, and only a number', () => {
    expect(errorCodeOf({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x' } })).toBe(-32022);
    for (const msg of [undefined, null, 'e', { error: null }, { error: { code: '1' } }, { result: {} }]) expect(errorCodeOf(msg)).toBeUndefined();
  });

  it('a record is a refused-probe answer only as the server\'s error answer', () => {
    const msg = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'unsupported', data: { supported: ['2025-11-25'] } } };
    expect(isRefusedProbeAnswer({ kind: 'error', from: 'server', method: 'server/discover' }, msg)).toBe(true);
    expect(isRefusedProbeAnswer({ kind: 'error', from: 'client', method: 'server/discover' }, msg)).toBe(false);
    expect(isRefusedProbeAnswer({ kind: 'response', from: 'server', method: 'server/discover' }, msg)).toBe(false);
    expect(isRefusedProbeAnswer({ kind: 'error', from: 'server', method: 'server/discover' }, { error: { code: -32603 } })).toBe(false);
    expect(mayBeRefusedProbe({ kind: 'error', method: 'server/discover' })).toBe(true);
    expect(mayBeRefusedProbe({ kind: 'response', method: 'server/discover' })).toBe(false);
    expect(mayBeRefusedProbe({ kind: 'error', method: 'initialize' })).toBe(false);
  });
});

const tmp = tempDir('mcp-tap-probe-');
afterAll(() => tmp.cleanup());

/** A session: probes answered with each code, then initialize and a failing tool call. */
function records(): LogRecord[] {
  let seq = 0;
  const out: LogRecord[] = [];
  const rec = (r: Record<string, unknown>) => out.push({ v: 1, time: 1_767_258_000_000 + seq, session: 's-1', seq: ++seq, ...r } as LogRecord);
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'p', command: 'node', args: [], pid: 1 });
  const probe = (id: number, code: number, message: string) => {
    rec({ from: 'client', kind: 'request', id, method: 'server/discover', msg: { jsonrpc: '2.0', id, method: 'server/discover', params: {} } });
    rec({ from: 'server', kind: 'error', id, method: 'server/discover', reqSeq: seq, ms: 1, msg: { jsonrpc: '2.0', id, error: { code, message } } });
  };
  probe(1, -32601, 'Method not found');
  probe(2, -32022, 'Unsupported protocol version');
  probe(3, -32603, 'discover crashed');
  rec({ from: 'client', kind: 'request', id: 4, method: 'tools/call', target: 'x', msg: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x' } } });
  rec({ from: 'server', kind: 'error', id: 4, method: 'tools/call', target: 'x', reqSeq: seq, ms: 1, msg: { jsonrpc: '2.0', id: 4, error: { code: -32022, message: 'not a probe' } } });
  rec({ from: 'proxy', kind: 'event', event: 'stdin-closed' });
  rec({ from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null });
  rec({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return out;
}

describe('check on a log with refused probes', () => {
  let log: string;
  beforeAll(() => {
    log = join(tmp.dir, 'probes.jsonrpc.log');
    writeFileSync(log, `${records().map((r) => JSON.stringify(r)).join('\n')}\n`);
  });

  it('asks the reader for the body of every error answer', () => {
    const errors = records().filter((r) => r.kind === 'error');
    expect(errors.map((r) => gatherNeedsBody({ ...r, msg: undefined } as LogRecord))).toEqual([true, true, true, true]);
  });

  it('reads each error answer\'s code and message, and tells refused probes from errors', async () => {
    const report = await checkLog({ format: 'json', failOn: [], assertions: { maxMs: [], expectTools: [], forbidTools: [] }, file: log, session: 'last' }, () => {});
    expect(report.requests.map((q) => [q.id, q.status, q.error])).toEqual([
      [1, 'refused-probe', { code: -32601, message: 'Method not found' }],
      [2, 'refused-probe', { code: -32022, message: 'Unsupported protocol version' }],
      [3, 'error', { code: -32603, message: 'discover crashed' }],
      [4, 'error', { code: -32022, message: 'not a probe' }],
    ]);
    expect(report.summary).toMatchObject({ requests: 4, errors: 2, refusedProbes: 2 });
  });
});

describe('the summary the exports show', () => {
  it('counts refused probes apart from errors', () => {
    const b = new SummaryBuilder();
    for (const r of records()) b.add(r);
    const s = b.finish();
    expect([s.refusedProbes, s.errors]).toEqual([2, 2]);
  });
});
