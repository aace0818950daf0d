/**
 * issue 28 §1: check stays bounded in the number of bad records. On a session where every request
 * carries a finding (the client never sent initialize) and nearly every answer is an error, isError or
 * missing, bounded check lists the first `perRule` results of each rule and error code — whatever the
 * note code, also a lens' — and counts the rest; the verdict, summary and assertion outcomes equal those
 * of an unbounded check. SARIF holds at most 5,000 results and says in the run what it left out; JUnit
 * bounds its testcases; every format says "… and N more".
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { Assertions } from '../../src/check/assertions.js';
import { evaluate } from '../../src/check/evaluate.js';
import { MAX_ERROR_CODES } from '../../src/check/omitted.js';
import { SessionGatherer, type GatherBound } from '../../src/check/gather.js';
import { JUNIT_MAX_REQUESTS, renderJunit } from '../../src/check/render-junit.js';
import { renderSarif, SARIF_MAX_RESULTS } from '../../src/check/render-sarif.js';
import { renderText } from '../../src/check/render-text.js';
import type { CheckReport } from '../../src/check/report.js';
import type { LogRecord } from '../../src/log/record.js';
import { ROOT } from '../helpers/paths.js';

type Rec = Partial<LogRecord> & { from: LogRecord['from']; kind: LogRecord['kind'] };

const N = 3000;
const BEFORE = { code: 'before-initialize', text: 'the client sent tools/call before the server answered initialize' };
/** A code no table of this version knows, as a lens (src/lens) adds it. */
const LENS = { code: 'lens-made-up', text: 'a lens finding' };

/** N tools/call without initialize; answers: errors of two codes, isError, never answered, cancelled. */
function sickSession(n = N): Rec[] {
  const recs: Rec[] = [{ from: 'proxy', kind: 'event', event: 'start', name: 'sick', command: 'node', args: [], pid: 7 }];
  for (let i = 1; i <= n; i++) {
    const reqSeq = recs.length + 1;
    const tool = i % 11 === 0 ? 'bad' : 'echo';
    recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: tool, notes: i % 3 === 0 ? [BEFORE, LENS] : [BEFORE] });
    if (i % 13 === 0) {
      recs.push({ from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq });
      continue;
    }
    if (i % 7 === 0) continue; // never answered
    const ms = 1 + (i % 10);
    if (i % 2 === 0) {
      const code = i % 4 === 0 ? -32603 : -32000;
      recs.push({ from: 'server', kind: 'error', id: i, reqSeq, ms, msg: { jsonrpc: '2.0', id: i, error: { code, message: `boom ${i}` } } });
    } else recs.push({ from: 'server', kind: 'response', id: i, reqSeq, ms, ...(i % 5 === 0 ? { isError: true } : {}) });
  }
  recs.push({ from: 'proxy', kind: 'event', event: 'stdin-closed' }, { from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null }, { from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return recs;
}

const ASSERT: Assertions = { maxMs: [{ key: 'tools/call', ms: 5 }], expectTools: [], forbidTools: ['bad'] };

function check(records: Rec[], bound?: GatherBound, perRule?: number): CheckReport {
  const g = new SessionGatherer('sick.log', 's', bound);
  records.forEach((r, i) => g.add({ record: { v: 1, time: 1000 + i, session: 's', seq: i + 1, ...r } as LogRecord, line: i + 1 }));
  return evaluate(g.finish(), { assertions: ASSERT, ...(perRule !== undefined ? { perRule } : {}) });
}

/** Results per key: the rule, with the error code for jsonrpc-error. */
function perKey(r: CheckReport): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of r.problems) {
    const code = p.ruleId === 'jsonrpc-error' ? ` ${r.requests[p.request!]!.error?.code}` : '';
    m.set(p.ruleId + code, (m.get(p.ruleId + code) ?? 0) + 1);
  }
  for (const o of r.omittedResults) {
    const k = o.ruleId + (o.errorCode !== undefined ? ` ${o.errorCode}` : '');
    m.set(k, (m.get(k) ?? 0) + o.count);
  }
  return m;
}

describe('check on a session where every record is bad', () => {
  const PER = 20;
  const whole = check(sickSession(), undefined, Infinity);
  const bounded = check(sickSession(), { listed: 50, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools, perRule: PER }, PER);

  it('reaches the verdict, summary and assertion outcomes of an unbounded check', () => {
    expect(whole.omittedResults).toEqual([]);
    expect(bounded.passed).toBe(false);
    expect(bounded.failed).toEqual(whole.failed);
    expect(bounded.summary).toEqual(whole.summary);
    expect(bounded.assertions).toEqual(whole.assertions);
    expect(bounded.summary.findings).toBe(N + N / 3);
    expect(bounded.summary.errors).toBe(whole.requests.filter((q) => q.status === 'error').length);
  });

  it('lists the first results of each rule and error code, also a lens code, and counts the rest exactly', () => {
    const listed = new Map<string, number>();
    for (const p of bounded.problems) {
      const k = p.ruleId === 'jsonrpc-error' ? `${p.ruleId} ${bounded.requests[p.request!]!.error?.code}` : p.ruleId;
      listed.set(k, (listed.get(k) ?? 0) + 1);
    }
    expect([...listed.keys()].sort()).toEqual(['before-initialize', 'forbidden-tool-present', 'jsonrpc-error -32000', 'jsonrpc-error -32603', 'lens-made-up', 'max-ms-exceeded', 'tool-is-error', 'unanswered-request']);
    for (const [k, n] of listed) expect(n, k).toBe(PER);
    // what is listed plus what is counted is every result of the unbounded check, per rule and error code
    expect(perKey(bounded)).toEqual(perKey(whole));
    expect(bounded.omittedResults.find((o) => o.ruleId === 'before-initialize')).toEqual({ ruleId: 'before-initialize', category: 'findings', count: N - PER });
    // the first of each, in log order
    const firstBefore = whole.problems.filter((p) => p.ruleId === 'before-initialize').slice(0, PER);
    expect(bounded.problems.filter((p) => p.ruleId === 'before-initialize')).toEqual(firstBefore);
  });

  it('keeps a bounded request list and says how many of each status it left out', () => {
    expect(bounded.requests.length).toBeLessThan(50 + 8 * PER);
    const byStatus = (r: CheckReport) => r.requests.reduce((m, q) => m.set(q.status, (m.get(q.status) ?? 0) + 1), new Map<string, number>());
    const all = byStatus(whole);
    const shown = byStatus(bounded);
    for (const [status, n] of all) expect((shown.get(status) ?? 0) + (bounded.omittedRequestsByStatus[status as 'ok'] ?? 0), status).toBe(n);
    expect(bounded.omittedRequests).toBe(N - bounded.requests.length);
  });

  it('text: says "… and N more" for each rule it left out', () => {
    const text = renderText(bounded);
    expect(text).toContain(`… and ${(N - PER).toLocaleString('en-US')} more before-initialize findings`);
    expect(text).toContain(`… and ${(N / 3 - PER).toLocaleString('en-US')} more lens-made-up findings`);
    expect(text).toMatch(/… and [\d,]+ more jsonrpc-error results \(error -32603\)/);
    expect(text).toContain(`mcp-tap check: FAIL — ${whole.problems.filter((p) => ['findings', 'unanswered', 'assertions'].includes(p.category)).length} failing results`);
  });
});

/** N tools/call sent before any answer; then answers to some (errors, isError, ok) in reverse order; some cancelled, the rest never answered. */
function openFlood(n: number): Rec[] {
  const recs: Rec[] = [{ from: 'proxy', kind: 'event', event: 'start', name: 'hang', command: 'node', args: [], pid: 7 }];
  const seqOf: number[] = [];
  for (let i = 1; i <= n; i++) {
    seqOf[i] = recs.length + 1;
    recs.push({ from: 'client', kind: 'request', id: i % 97 === 0 ? null : i, method: 'tools/call', target: i % 11 === 0 ? 'bad' : 'echo' });
  }
  for (let i = n; i >= 1; i--) {
    const reqSeq = seqOf[i]!;
    if (i % 13 === 0) recs.push({ from: 'client', kind: 'notification', method: 'notifications/cancelled', reqSeq });
    else if (i % 3 === 0) recs.push({ from: 'server', kind: 'error', id: i, reqSeq, ms: 2, msg: { jsonrpc: '2.0', id: i, error: { code: -32001, message: 'late' } } });
    else if (i % 5 === 0) recs.push({ from: 'server', kind: 'response', id: i, reqSeq, ms: 9, isError: true });
    else if (i % 2 === 0) recs.push({ from: 'server', kind: 'response', id: i, reqSeq, ms: 1 });
  }
  recs.push({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return recs;
}

describe('check on a session that leaves very many requests open', () => {
  it('keeps the open requests past a bound as a number each; the verdict, summary and assertions stay exact', () => {
    const recs = openFlood(4000);
    const whole = check(recs, undefined, Infinity);
    const bounded = check(recs, { listed: 50, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools, perRule: 20, waitingWhole: 100 }, 20);
    expect(bounded.summary).toEqual(whole.summary);
    expect(bounded.failed).toEqual(whole.failed);
    expect(bounded.assertions).toEqual(whole.assertions);
    expect(perKey(bounded)).toEqual(perKey(whole));
    expect(bounded.summary.unanswered).toBeGreaterThan(900);
    expect(bounded.requests.length).toBeLessThan(50 + 100 + 8 * 20);
  });
});

/** n tools/call, each answered with an error of its own code (a server that puts an errno in the code). */
function ownCodes(n: number): Rec[] {
  const recs: Rec[] = [{ from: 'proxy', kind: 'event', event: 'start', name: 'errno', command: 'node', args: [], pid: 7 }];
  for (let i = 1; i <= n; i++) {
    const reqSeq = recs.length + 1;
    recs.push({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo' });
    recs.push({ from: 'server', kind: 'error', id: i, reqSeq, ms: 1, msg: { jsonrpc: '2.0', id: i, error: { code: -40000 - i, message: `errno ${i}` } } });
  }
  recs.push({ from: 'proxy', kind: 'event', event: 'end', pending: [] });
  return recs;
}

describe('check on a session whose every error has its own code', () => {
  const n = 2000;
  const bounded = check(ownCodes(n), { listed: 50, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools, perRule: 20 }, 20);
  const left = bounded.omittedResults.filter((o) => o.ruleId === 'jsonrpc-error');

  it(`counts the left-out answers of ${MAX_ERROR_CODES} codes one by one and the rest together, every error still counted`, () => {
    expect(bounded.summary.errors).toBe(n);
    const listed = bounded.problems.filter((p) => p.ruleId === 'jsonrpc-error').length;
    expect(left.filter((o) => o.errorCode !== undefined)).toHaveLength(MAX_ERROR_CODES);
    expect(left.filter((o) => o.otherCodes)).toEqual([{ ruleId: 'jsonrpc-error', category: 'errors', otherCodes: true, count: n - listed - MAX_ERROR_CODES }]);
    expect(listed + left.reduce((sum, o) => sum + o.count, 0)).toBe(n);
  });

  it('says so in one line, not one line per code', () => {
    const text = renderText(bounded);
    expect(text.match(/… and 1 more jsonrpc-error result \(error -4\d+\)/g)).toHaveLength(MAX_ERROR_CODES);
    expect(text).toContain(`… and ${(n - bounded.problems.length - MAX_ERROR_CODES).toLocaleString('en-US')} more jsonrpc-error results (other error codes, past the first ${MAX_ERROR_CODES})`);
  });
});

describe('SARIF and JUnit of a sick session', () => {
  // 12,000 requests: more results of one rule than a SARIF run may hold
  const big = check(sickSession(12_000), undefined, Infinity);

  it('SARIF: at most 5,000 results, every rule represented, and the run says how many of which rule it left out', () => {
    expect(big.problems.length).toBeGreaterThan(2 * SARIF_MAX_RESULTS);
    const sarif = JSON.parse(renderSarif(big, { cwd: '/' }));
    const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
    delete schema['$schema'];
    delete schema['id'];
    const ajv = new Ajv.default({ strict: false, allErrors: true, validateSchema: false, unicodeRegExp: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const run = sarif.runs[0];
    expect(run.results.length).toBeLessThanOrEqual(SARIF_MAX_RESULTS);
    expect(run.results.length).toBeGreaterThan(SARIF_MAX_RESULTS - 10);
    const shown = new Map<string, number>();
    for (const r of run.results) shown.set(r.ruleId, (shown.get(r.ruleId) ?? 0) + 1);
    const all = new Map<string, number>();
    for (const p of big.problems) all.set(p.ruleId, (all.get(p.ruleId) ?? 0) + 1);
    expect([...shown.keys()].sort()).toEqual([...all.keys()].sort());
    const notes = run.invocations[0].toolExecutionNotifications as Array<{ associatedRule: { id: string }; properties: { omitted: number }; message: { text: string } }>;
    for (const [rule, n] of all) {
      const left = n - (shown.get(rule) ?? 0);
      const note = notes.find((x) => x.associatedRule.id === rule);
      if (left === 0) expect(note).toBeUndefined();
      else {
        expect(note?.properties.omitted, rule).toBe(left);
        expect(note?.message.text).toContain(`… and ${left.toLocaleString('en-US')} more ${rule}`);
        expect(run.properties.omittedResults.byRule[rule]).toBe(left);
      }
    }
  });

  it('SARIF counts what the report already left out too', () => {
    const run = JSON.parse(renderSarif(bounded(), { cwd: '/' })).runs[0];
    const before = run.invocations[0].toolExecutionNotifications.find((x: { associatedRule: { id: string } }) => x.associatedRule.id === 'before-initialize');
    expect(before.properties.omitted).toBe(N - 20);
  });

  it(`JUnit: at most ${JUNIT_MAX_REQUESTS} request testcases, and the rest counted by status`, () => {
    const xml = renderJunit(big);
    const cases = xml.match(/classname="mcp-tap\.requests\./g) ?? [];
    expect(big.requests.length).toBeGreaterThan(JUNIT_MAX_REQUESTS);
    expect(cases.length).toBeLessThanOrEqual(JUNIT_MAX_REQUESTS);
    const left = [...xml.matchAll(/… and (\d+) more (?:passing requests?|requests? with status [a-z-]+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(cases.length + left).toBe(big.requests.length);
    const b = bounded();
    expect(renderJunit(b)).toContain(`… and ${(N - 20).toLocaleString('en-US')} more before-initialize findings`);
  });
});

function bounded(): CheckReport {
  return check(sickSession(), { listed: 50, maxMs: ASSERT.maxMs, forbidTools: ASSERT.forbidTools, perRule: 20 }, 20);
}
