/**
 * check's request list on a long session (issue 27, docs/check.md "Long sessions"): up to 1,000
 * requests are listed whole; from the 1,001st on, a passing request is only counted (omittedRequests)
 * while one that did not pass is still listed. Read in process from log files, as `check` reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkLog } from '../../src/check/run-check.js';
import type { CheckPlan } from '../../src/check/check-options.js';
import type { CheckReport } from '../../src/check/report.js';
import { tempDir } from '../helpers/paths.js';

const tmp = tempDir('mcp-tap-check-listed-');
afterAll(() => tmp.cleanup());

/** A log of `requests` requests (initialize, then tools/call), each answered; `failing` ids get an error. */
function writeLog(name: string, requests: number, failing: number[] = []): string {
  const lines: string[] = [];
  let seq = 0;
  const rec = (r: Record<string, unknown>) => lines.push(JSON.stringify({ v: 1, time: 1_767_258_000_000 + seq, session: 's-1', seq: ++seq, ...r }));
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'long', command: 'node', args: ['s.js'], pid: 1 });
  rec({ from: 'client', kind: 'request', id: 0, method: 'initialize', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } });
  rec({ from: 'server', kind: 'response', id: 0, method: 'initialize', reqSeq: seq, ms: 1, msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'long', version: '1' } } } });
  for (let id = 1; id < requests; id++) {
    rec({ from: 'client', kind: 'request', id, method: 'tools/call', target: 'echo' });
    const reqSeq = seq;
    if (failing.includes(id)) rec({ from: 'server', kind: 'error', id, method: 'tools/call', target: 'echo', reqSeq, ms: 1, msg: { jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } } });
    else rec({ from: 'server', kind: 'response', id, method: 'tools/call', target: 'echo', reqSeq, ms: 1 });
  }
  rec({ from: 'proxy', kind: 'event', event: 'stdin-closed' });
  rec({ from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null });
  rec({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
  const path = join(tmp.dir, `${name}.jsonrpc.log`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const plan = (file: string): CheckPlan => ({ format: 'json', failOn: [], assertions: { maxMs: [], expectTools: [], forbidTools: [] }, file, session: 'last' });
const check = (file: string): Promise<CheckReport> => checkLog(plan(file), () => {});

describe('check: the first 1,000 requests', () => {
  let logs: Record<string, string>;
  beforeAll(() => {
    logs = { at: writeLog('at', 1000), over: writeLog('over', 1001), overFailing: writeLog('over-failing', 1005, [1001, 1003]) };
  });

  it('lists a session of exactly 1,000 requests whole', async () => {
    const r = await check(logs.at!);
    expect(r.requests).toHaveLength(1000);
    expect(r.requests.map((q) => q.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(r.omittedRequests).toBe(0);
    expect(r.summary).toMatchObject({ requests: 1000, answered: 1000 });
  });

  it('at 1,001 lists the first 1,000 and counts the passing 1,001st', async () => {
    const r = await check(logs.over!);
    expect(r.requests).toHaveLength(1000);
    expect(r.requests.at(-1)!.id).toBe(999);
    expect(r.omittedRequests).toBe(1);
    expect(r.summary).toMatchObject({ requests: 1001, answered: 1001 });
  });

  it('past 1,000 still lists the requests that did not pass', async () => {
    const r = await check(logs.overFailing!);
    // 1,005 requests: ids 0-999 listed; of 1000-1004 the errored 1001 and 1003 listed, the rest counted
    expect(r.requests.map((q) => q.id).slice(-3)).toEqual([999, 1001, 1003]);
    expect(r.requests).toHaveLength(1002);
    expect(r.omittedRequests).toBe(3);
    expect(r.summary).toMatchObject({ requests: 1005, errors: 2 });
  });
});
