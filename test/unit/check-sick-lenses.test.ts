/**
 * Issue 28 §1 meets issues 29 and 30: a session with thousands of spec and security results. check
 * reads the log through the real lens stage (readFacts): the spec lens flags every tools/call whose
 * params lack `name`, the security lens a token in tool arguments (its own budget: the first 50, then
 * one note counting the rest), and the log's records carry security notes of their own (a log is read
 * whatever stage wrote its notes). Bounded, check lists the first RESULTS_PER_RULE of each code and
 * counts the rest, with the summary's specViolations and security exact; SARIF holds at most 5,000
 * results whatever their category, says per rule what it left out, and keeps security-severity and the
 * security tag on the security rules; JUnit's security suite counts what the report left out; the
 * baseline counts every finding of FINDING_CATEGORIES.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/check/evaluate.js';
import { buildBaseline } from '../../src/check/baseline.js';
import { LISTED_REQUESTS, RESULTS_PER_RULE, type SessionFacts } from '../../src/check/facts.js';
import { readFacts } from '../../src/check/read-facts.js';
import { renderJunit } from '../../src/check/render-junit.js';
import { renderSarif, SARIF_MAX_RESULTS } from '../../src/check/render-sarif.js';
import type { CheckReport } from '../../src/check/report.js';
import type { LogRecord } from '../../src/log/record.js';
import { ROOT } from '../helpers/paths.js';
import { handshake, harness, req, res } from './helpers/session-harness.js';

const N = 6000;
const GH = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
/** Security notes the log itself carries on answers: every second and every third. */
const LOGGED = { 'credential-in-result': N / 2, 'unicode-zero-width': N / 3 };

/** The session's log lines: N tools/call without `name` (each fortieth with a token in its arguments), answered; logged security notes added. */
function sickLog(): string {
  const h = handshake(harness());
  for (let i = 1; i <= N; i++) {
    h.send('client', req(i, 'tools/call', { arguments: i % 40 === 0 ? { token: GH } : { q: i } }));
    h.send('server', res(i, { content: [{ type: 'text', text: 'ok' }] }));
  }
  h.finish();
  let answer = 0;
  return `${h.lines
    .map((line) => {
      const r = JSON.parse(line) as LogRecord;
      if (r.kind !== 'response' || r.method !== 'tools/call') return line;
      answer++;
      const notes = [
        ...(answer % 2 === 0 ? [{ code: 'credential-in-result', text: 'a token in the result' }] : []),
        ...(answer % 3 === 0 ? [{ code: 'unicode-zero-width', text: 'a zero-width space in the result' }] : []),
      ];
      if (notes.length === 0) return line;
      const { msg, ...head } = r;
      // msg last, as the log writes it (readers parse the envelope before it)
      return JSON.stringify({ ...head, notes: [...(head.notes ?? []), ...notes], msg });
    })
    .join('\n')}\n`;
}

let dir: string;
let bounded: CheckReport;
let whole: CheckReport;
let wholeFacts: SessionFacts;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-tap-sick-lenses-'));
  const path = join(dir, 'sick.jsonrpc.log');
  writeFileSync(path, sickLog());
  bounded = evaluate(await readFacts(path, { bound: { listed: LISTED_REQUESTS, maxMs: [], forbidTools: [] } }));
  wholeFacts = await readFacts(path);
  whole = evaluate(wholeFacts, { perRule: Infinity });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Results per rule: listed plus counted. */
function perRule(r: CheckReport): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of r.problems) m.set(p.ruleId, (m.get(p.ruleId) ?? 0) + 1);
  for (const o of r.omittedResults) m.set(o.ruleId, (m.get(o.ruleId) ?? 0) + o.count);
  return m;
}

describe('check of a session with thousands of spec and security results', () => {
  it('counts every one: the summary and the verdict are the unbounded check\'s', () => {
    expect(whole.omittedResults).toEqual([]);
    expect(whole.summary.specViolations).toBe(N);
    const lensCredentials = perRule(whole).get('credential-in-arguments')!;
    // the lens notes its first 50 and then one more that counts the rest
    expect(lensCredentials).toBe(51);
    expect(whole.summary.security).toBe(LOGGED['credential-in-result'] + LOGGED['unicode-zero-width'] + lensCredentials);
    expect(bounded.summary).toEqual(whole.summary);
    expect(bounded.failed).toEqual(['spec', 'security']);
    expect(bounded.failed).toEqual(whole.failed);
    expect(perRule(bounded)).toEqual(perRule(whole));
  });

  it('lists the first of each code and counts the rest, by category', () => {
    const listed = (id: string) => bounded.problems.filter((p) => p.ruleId === id).length;
    expect(listed('schema-violation')).toBe(RESULTS_PER_RULE);
    expect(listed('credential-in-result')).toBe(RESULTS_PER_RULE);
    expect(bounded.omittedResults).toEqual(
      expect.arrayContaining([
        { ruleId: 'schema-violation', category: 'spec', count: N - RESULTS_PER_RULE },
        { ruleId: 'credential-in-result', category: 'security', count: LOGGED['credential-in-result'] - RESULTS_PER_RULE },
        { ruleId: 'unicode-zero-width', category: 'security', count: LOGGED['unicode-zero-width'] - RESULTS_PER_RULE },
      ]),
    );
  });

  it('SARIF: at most 5,000 results, each rule\'s left-out count noted, security rules ranked by severity', () => {
    for (const report of [whole, bounded]) {
      const sarif = JSON.parse(renderSarif(report, { cwd: '/' }));
      const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
      delete schema['$schema'];
      delete schema['id'];
      const ajv = new Ajv.default({ strict: false, allErrors: true, validateSchema: false, unicodeRegExp: false });
      addFormats.default(ajv);
      const validate = ajv.compile(schema);
      expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      const run = sarif.runs[0];
      expect(run.results.length).toBeLessThanOrEqual(SARIF_MAX_RESULTS);
      const shown = new Map<string, number>();
      for (const r of run.results) shown.set(r.ruleId, (shown.get(r.ruleId) ?? 0) + 1);
      const notes = run.invocations[0].toolExecutionNotifications as Array<{ associatedRule: { id: string }; properties: { omitted: number }; message: { text: string } }>;
      for (const [rule, n] of perRule(whole)) {
        const left = n - (shown.get(rule) ?? 0);
        const note = notes.find((x) => x.associatedRule.id === rule);
        if (left === 0) expect(note, rule).toBeUndefined();
        else {
          expect(note?.properties.omitted, rule).toBe(left);
          expect(note?.message.text).toContain(`… and ${left.toLocaleString('en-US')} more ${rule} findings`);
          expect(run.properties.omittedResults.byRule[rule]).toBe(left);
        }
      }
      // every rule with results has some in the file: the lens' few are all there
      expect(shown.get('credential-in-arguments')).toBe(51);
      if (report === whole) {
        // 51 + the rest shared equally among the three big rules (shareResults)
        expect(run.results.length).toBe(SARIF_MAX_RESULTS);
        expect([shown.get('unicode-zero-width'), shown.get('credential-in-result'), shown.get('schema-violation')]).toEqual([1649, 1650, 1650]);
      } else {
        // the report's 3,051 all fit; what it left out is still noted per rule
        expect(shown.get('schema-violation')).toBe(RESULTS_PER_RULE);
        expect(shown.get('credential-in-result')).toBe(RESULTS_PER_RULE);
      }
      const rule = (id: string) => run.tool.driver.rules.find((r: { id: string }) => r.id === id);
      expect(rule('credential-in-result').properties).toEqual({ category: 'security', tags: ['security', 'mcp'], 'security-severity': '9.1' });
      expect(rule('unicode-zero-width').properties['security-severity']).toBe('5.3');
      expect(rule('schema-violation').properties).toEqual({ category: 'spec', tags: ['mcp', 'spec'] });
      const levels = new Set(run.results.filter((r: { ruleId: string }) => r.ruleId !== 'before-initialize').map((r: { level: string }) => r.level));
      expect([...levels]).toEqual(['error']);
      expect(run.properties.summary.security).toBe(whole.summary.security);
    }
  });

  it('JUnit: the security suite fails each rule that occurred and says how many more the report counted', () => {
    const xml = renderJunit(bounded);
    const suite = xml.slice(xml.indexOf('<testsuite name="mcp-tap.security"'), xml.indexOf('</testsuite>', xml.indexOf('<testsuite name="mcp-tap.security"')));
    const testcase = (code: string) => suite.slice(suite.indexOf(`name="${code}"`), suite.indexOf('</testcase>', suite.indexOf(`name="${code}"`)));
    expect(testcase('credential-in-result')).toContain(`… and ${(LOGGED['credential-in-result'] - RESULTS_PER_RULE).toLocaleString('en-US')} more credential-in-result findings`);
    expect(testcase('unicode-zero-width')).toContain('<failure type="unicode-zero-width"');
    expect((testcase('credential-in-result').match(/credential-in-result: a token in the result/g) ?? []).length).toBe(RESULTS_PER_RULE);
    const findings = xml.slice(xml.indexOf('<testsuite name="mcp-tap.findings"'));
    expect(findings).toContain(`… and ${(N - RESULTS_PER_RULE).toLocaleString('en-US')} more schema-violation findings`);
  });

  it('baseline: counts every finding of the findings and spec categories, also those the report did not list', () => {
    const b = buildBaseline(wholeFacts);
    expect(b.findings['schema-violation']).toBe(N);
    // security results are not findings of the baseline (diff compares tools for those)
    expect(b.findings['credential-in-result']).toBeUndefined();
  });
});
