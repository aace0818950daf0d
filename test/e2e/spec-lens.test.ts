/**
 * Issue 29's scripted 2025-11-25 session, recorded by the real proxy: six messages that break the
 * schema — an initialize answer whose serverInfo has no version, a tool whose annotations.readOnlyHint is
 * "yes", progress "half", a text content item without text, a tools/call without a name, a resources/read
 * contents item without uri. The log itself holds no finding (the analysis checks envelopes); every
 * reader flags exactly these six at their own seq: check (gating with --fail-on spec; text, JSON, SARIF,
 * JUnit), tail (in yellow), stats, export (Markdown, JSON, HTML), ls, diff and the live UI's reader.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogWatch } from '../../src/ui/log-watch.js';
import { sessionRowLines } from '../../src/ui/read-session.js';
import type { SessionRow } from '../../src/session-view/row.js';
import { planCheck } from '../../src/check/check-options.js';
import { renderJunit } from '../../src/check/render-junit.js';
import { renderSarif } from '../../src/check/render-sarif.js';
import { checkLog } from '../../src/check/run-check.js';
import { collect, openInput } from '../../src/transcript/read-input.js';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords, type Rec } from '../helpers/log.js';

const exec = promisify(execFile);
const CLIENT = join(ROOT, 'test', 'fixtures', 'clients', 'spec-broken-client.mjs');

async function tap(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 30_000, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

let tmp: { dir: string; cleanup: () => void };
let log: string;
let recs: Rec[];
/** The six records, by what they are (found in the log by hand-written predicates). */
let six: Array<{ seq: number; line: number; pointer: string }>;

beforeAll(async () => {
  tmp = tempDir('mcp-tap-spec-');
  log = join(tmp.dir, 'spec-broken.jsonrpc.log');
  const r = await exec(process.execPath, [CLIENT, process.execPath, CLI, '--log', log, '--', process.execPath, fixture('spec-broken-server.mjs')], { timeout: 20_000 });
  expect(JSON.parse(r.stdout)).toEqual({ answered: [0, 1, 2, 3, 4, 5], exit: 0 });
  recs = readRecords(log);
  const find = (what: string, pred: (r: Rec) => boolean, pointer: string) => {
    const i = recs.findIndex(pred);
    expect(i, what).toBeGreaterThanOrEqual(0);
    return { seq: recs[i]!.seq, line: i + 1, pointer };
  };
  const result = (r: Rec) => (r.msg as { result?: unknown }).result;
  six = [
    find('initialize answer', (r) => r.kind === 'response' && r.method === 'initialize', '/result/serverInfo/version'),
    find('tools/list answer', (r) => r.kind === 'response' && r.method === 'tools/list', '/result/tools/0/annotations/readOnlyHint'),
    find('progress "half"', (r) => r.method === 'notifications/progress' && JSON.stringify(r.msg).includes('"half"'), '/params/progress'),
    find('tools/call answer', (r) => r.kind === 'response' && r.method === 'tools/call' && result(r) !== undefined, '/result/content/0/text'),
    find('tools/call without a name', (r) => r.kind === 'request' && r.id === 3, '/params/name'),
    find('resources/read answer', (r) => r.kind === 'response' && r.method === 'resources/read', '/result/contents/0/uri'),
  ];
}, 30_000);
afterAll(() => tmp?.cleanup());

describe('issue 29: six schema violations in a recorded 2025-11-25 session', () => {
  it('the log holds no finding of the analysis (it checks envelopes, not bodies)', () => {
    expect(recs.filter((r) => Array.isArray(r.notes))).toEqual([]);
    expect(recs.find((r) => r.event === 'lifecycle')).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('check --fail-on spec fails, on exactly the six, each at its own seq and line, with its pointer', async () => {
    const r = await tap(['check', log, '--fail-on', 'spec', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { failed: string[]; summary: { specViolations: number }; problems: Array<{ ruleId: string; category: string; seq: number; line: number; message: string }> };
    const spec = report.problems.filter((p) => p.ruleId === 'schema-violation');
    expect(spec.map((p) => [p.seq, p.line, p.category])).toEqual(six.map((s) => [s.seq, s.line, 'spec']));
    spec.forEach((p, i) => expect(p.message).toContain(`of MCP 2025-11-25: ${six[i]!.pointer}: expected `));
    expect(report.failed).toEqual(['spec']);
    expect(report.summary.specViolations).toBe(6);
    // the nameless call's -32602 answer is the only other result (an error, not a schema problem)
    expect(report.problems.filter((p) => p.ruleId !== 'schema-violation').map((p) => p.ruleId)).toEqual(['jsonrpc-error']);
  });

  it('gates: the default fails, --fail-on findings does not count spec', async () => {
    const [plain, findings] = await Promise.all([tap(['check', log]), tap(['check', log, '--fail-on', 'findings'])]);
    expect(plain.code).toBe(1);
    for (const x of six) expect(plain.stdout).toMatch(new RegExp(`✗ schema-violation +line ${x.line} `));
    expect(findings.code).toBe(0);
  });

  it('SARIF: the rule with its helpUri, six error results located at their records; JUnit lists the six', async () => {
    const report = await checkLog(planCheck([log], { format: 'sarif', failOn: ['spec'] }), () => {});
    const run = JSON.parse(renderSarif(report, { cwd: tmp.dir })).runs[0];
    const rule = run.tool.driver.rules.find((x: { id: string }) => x.id === 'schema-violation');
    expect(rule).toMatchObject({ helpUri: 'https://modelcontextprotocol.io/specification/2025-11-25/schema', properties: { category: 'spec' } });
    const results = run.results.filter((x: { ruleId: string }) => x.ruleId === 'schema-violation');
    expect(results.map((x: { level: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }) => [x.level, x.locations[0]!.physicalLocation.region.startLine])).toEqual(
      six.map((x) => ['error', x.line]),
    );
    const xml = renderJunit(report);
    const testcase = xml.slice(xml.indexOf('name="schema-violation"'), xml.indexOf('</testcase>', xml.indexOf('name="schema-violation"')));
    expect(testcase.match(/<failure /g)).toHaveLength(1);
    expect([...testcase.matchAll(/\[line (\d+), seq (\d+)\]/g)].map((m) => Number(m[2]))).toEqual(six.map((x) => x.seq));
  });

  it('tail shows each on its record\'s line, in yellow', async () => {
    const colored = (await tap(['tail', log], { NO_COLOR: '', FORCE_COLOR: '1' })).stdout;
    expect(colored).toContain('\u001b[33m ⚠ this answer to initialize does not match InitializeResult of MCP 2025-11-25');
    // eslint-disable-next-line no-control-regex
    const plain = colored.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
    for (const x of six) {
      const line = plain.find((l) => new RegExp(`#${x.seq} `).test(l))!;
      expect(line, `#${x.seq}`).toContain(`${x.pointer}: expected`);
      expect(line).toMatch(/\[schema-violation\]$/);
    }
    expect(plain.filter((l) => l.includes('[schema-violation]'))).toHaveLength(6);
  });

  it('stats count six among the findings; ls counts the records that carry them', async () => {
    const [statsOut, lsOut] = await Promise.all([tap(['stats', log, '--json']), tap(['ls', '--json', '--dir', tmp.dir])]);
    expect(JSON.parse(statsOut.stdout).findings).toEqual([{ code: 'schema-violation', count: 6 }]);
    const ls = JSON.parse(lsOut.stdout);
    expect(ls.map((s: { findings: number }) => s.findings)).toEqual([6]);
  });

  it('export: Markdown, JSON and the HTML report carry them', async () => {
    const [mdOut, htmlOut] = await Promise.all([tap(['export', log, '--no-redact']), tap(['export', log, '--format', 'html'])]);
    expect(mdOut.stdout.match(/> `schema-violation` /g)).toHaveLength(6);
    const json = await collect((await openInput({ file: log, warn: () => {} })).records);
    expect(json.filter((r) => r.notes?.some((n) => n.code === 'schema-violation')).map((r) => r.seq)).toEqual(six.map((x) => x.seq));
    const html = htmlOut.stdout;
    expect(html.match(/schema-violation/g)?.length).toBeGreaterThanOrEqual(6);
  });

  it('diff: schema-violation is a finding new in B', async () => {
    const r = await tap(['diff', join(ROOT, 'test', 'fixtures', 'logs', 'check-clean.jsonl'), log, '--format', 'json']);
    expect(JSON.parse(r.stdout).differences).toContainEqual({ area: 'findings', kind: 'new', name: 'schema-violation', after: 6 });
  });

  it('the live UI\'s reader counts them on the card and its rows carry them', async () => {
    const ac = new AbortController();
    const watch = new LogWatch({ files: [log], signal: ac.signal, pollMs: 20 });
    try {
      await watch.start();
      const hello = watch.snapshot();
      expect(hello.type === 'hello' && hello.cards[0]!.findings).toBe(6);
      const rows = (await collect(sessionRowLines(log, recs[0]!.session))).join('').trim().split('\n').map((l) => JSON.parse(l) as SessionRow);
      expect(rows.filter((r) => r.n?.some((n) => n.code === 'schema-violation'))).toHaveLength(6);
    } finally {
      ac.abort();
    }
  });
});
