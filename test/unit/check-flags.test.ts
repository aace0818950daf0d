/**
 * Every `check` flag with a passing and a failing fixture log (test/fixtures/logs/check-*.jsonl),
 * through the same planning and judging the command uses.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planCheck, type CheckCliOptions } from '../../src/check/check-options.js';
import { checkLog } from '../../src/check/run-check.js';
import { ROOT } from '../helpers/paths.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'logs');
const CLEAN = join(LOGS, 'check-clean.jsonl');
const PROBLEMS = join(LOGS, 'check-problems.jsonl');
const MULTI = join(LOGS, 'check-multi.jsonl');

async function check(file: string, flags: Partial<CheckCliOptions>) {
  const warnings: string[] = [];
  const report = await checkLog(planCheck([file], { format: 'text', ...flags }), (m) => warnings.push(m));
  const failing = report.problems.filter((p) => (report.failOn as string[]).includes(p.category)).map((p) => p.ruleId);
  return { report, failing: [...new Set(failing)].sort(), warnings };
}

interface Case {
  flag: string;
  file: string;
  opts: Partial<CheckCliOptions>;
  /** Rule ids that fail the check; [] means it passes. */
  failing: string[];
}

const CASES: Case[] = [
  { flag: '--session', file: MULTI, opts: { session: 'multi-bbbb' }, failing: [] },
  { flag: '--session', file: MULTI, opts: { session: 'multi-aaaa' }, failing: ['unanswered-request'] },
  { flag: '(default --fail-on)', file: CLEAN, opts: {}, failing: [] },
  // its tools/list answer lists a tool whose inputSchema is "type": "array": InputSchema's type is "object"
  { flag: '(default --fail-on)', file: PROBLEMS, opts: {}, failing: ['schema-violation', 'server-exited-early', 'stdout-not-json', 'unanswered-request'] },
  { flag: '--fail-on findings', file: CLEAN, opts: { failOn: ['findings'] }, failing: [] },
  { flag: '--fail-on findings', file: PROBLEMS, opts: { failOn: ['findings'] }, failing: ['server-exited-early', 'stdout-not-json'] },
  { flag: '--fail-on spec', file: CLEAN, opts: { failOn: ['spec'] }, failing: [] },
  { flag: '--fail-on spec', file: PROBLEMS, opts: { failOn: ['spec'] }, failing: ['schema-violation'] },
  { flag: '--fail-on errors', file: CLEAN, opts: { failOn: ['errors'] }, failing: [] },
  { flag: '--fail-on errors', file: PROBLEMS, opts: { failOn: ['errors'] }, failing: ['jsonrpc-error'] },
  { flag: '--fail-on is-error', file: CLEAN, opts: { failOn: ['is-error'] }, failing: [] },
  { flag: '--fail-on is-error', file: PROBLEMS, opts: { failOn: ['is-error'] }, failing: ['tool-is-error'] },
  { flag: '--fail-on unanswered', file: CLEAN, opts: { failOn: ['unanswered'] }, failing: [] },
  { flag: '--fail-on unanswered', file: PROBLEMS, opts: { failOn: ['unanswered'] }, failing: ['unanswered-request'] },
  { flag: '--fail-on schema', file: CLEAN, opts: { failOn: ['schema'] }, failing: [] },
  { flag: '--fail-on schema', file: PROBLEMS, opts: { failOn: ['schema'] }, failing: ['tool-schema-invalid', 'tool-schema-not-object', 'tool-schema-required-missing'] },
  { flag: '--fail-on assertions', file: PROBLEMS, opts: { failOn: ['assertions'] }, failing: [] },
  { flag: '--fail-on assertions', file: CLEAN, opts: { failOn: ['assertions'], expectTool: ['nope'] }, failing: ['expected-tool-missing'] },
  { flag: '--fail-on none', file: PROBLEMS, opts: { failOn: ['none'] }, failing: [] },
  { flag: '--fail-on none', file: CLEAN, opts: { failOn: ['none'], expectTool: ['nope'] }, failing: [] },
  { flag: '--fail-on all', file: CLEAN, opts: { failOn: ['all'] }, failing: [] },
  {
    flag: '--fail-on all',
    file: PROBLEMS,
    opts: { failOn: ['errors,is-error', 'all'] },
    failing: ['jsonrpc-error', 'schema-violation', 'server-exited-early', 'stdout-not-json', 'tool-is-error', 'tool-schema-invalid', 'tool-schema-not-object', 'tool-schema-required-missing', 'unanswered-request'],
  },
  { flag: '--max-ms <method>', file: CLEAN, opts: { maxMs: ['tools/call=500'] }, failing: [] },
  { flag: '--max-ms <method>', file: CLEAN, opts: { maxMs: ['tools/call=100'] }, failing: ['max-ms-exceeded'] },
  { flag: '--max-ms <tool>', file: CLEAN, opts: { maxMs: ['slow-report=400', 'echo=20'] }, failing: [] },
  { flag: '--max-ms <tool>', file: CLEAN, opts: { maxMs: ['echo=10'] }, failing: ['max-ms-exceeded'] },
  { flag: '--max-ms *', file: CLEAN, opts: { maxMs: ['*=1000'] }, failing: [] },
  { flag: '--max-ms *', file: CLEAN, opts: { maxMs: ['*=30'] }, failing: ['max-ms-exceeded'] },
  { flag: '--max-ms (unanswered)', file: PROBLEMS, opts: { failOn: ['assertions'], maxMs: ['echo=1000'] }, failing: ['max-ms-exceeded'] },
  { flag: '--expect-tool', file: CLEAN, opts: { expectTool: ['echo', 'slow-report'] }, failing: [] },
  { flag: '--expect-tool', file: CLEAN, opts: { expectTool: ['echo', 'rm'] }, failing: ['expected-tool-missing'] },
  { flag: '--forbid-tool', file: CLEAN, opts: { forbidTool: ['rm'] }, failing: [] },
  { flag: '--forbid-tool', file: CLEAN, opts: { forbidTool: ['echo'] }, failing: ['forbidden-tool-present'] },
];

describe('check flags on fixture logs', () => {
  for (const c of CASES) {
    const name = `${c.flag} ${JSON.stringify(c.opts)} on ${c.file.split('/').pop()} → ${c.failing.length === 0 ? 'pass' : 'fail'}`;
    it(name, async () => {
      const { report, failing } = await check(c.file, c.opts);
      expect(failing).toEqual(c.failing);
      expect(report.passed).toBe(c.failing.length === 0);
    });
  }

  it('reports which max-ms requests broke the limit, with the measured latency and the request located', async () => {
    const { report } = await check(CLEAN, { maxMs: ['tools/call=100'] });
    const p = report.problems.filter((x) => x.ruleId === 'max-ms-exceeded');
    expect(p).toHaveLength(1);
    expect(p[0]!.message).toBe('tools/call "slow-report" (seq 11) took 320.5 ms, over the 100 ms limit (--max-ms tools/call=100)');
    expect(p[0]).toMatchObject({ seq: 12, line: 12 });
    expect(report.requests[p[0]!.request!]!.target).toBe('slow-report');
    expect(report.assertions).toEqual([{ flag: '--max-ms tools/call=100', passed: false, failures: 1, matched: 2 }]);
  });

  it('counts a forbidden tool that is both listed and called, and says a --max-ms that matched nothing', async () => {
    const { report } = await check(CLEAN, { forbidTool: ['echo'], maxMs: ['nothing=5'] });
    expect(report.problems.filter((p) => p.ruleId === 'forbidden-tool-present').map((p) => p.message)).toEqual([
      'forbidden tool "echo" is offered in tools/list',
      'forbidden tool "echo" was called (seq 9)',
    ]);
    expect(report.warnings).toContain('--max-ms nothing=5 matched no request of the session');
  });

  it('makes the expect-tool result say when the session has no tools/list', async () => {
    const { report } = await check(MULTI, { session: 'multi-aaaa', expectTool: ['echo'] });
    expect(report.problems.find((p) => p.ruleId === 'expected-tool-missing')?.message).toBe('expected tool "echo" is missing: the session has no tools/list answer');
  });
});

describe('check flag values', () => {
  const bad: Array<[string[], Partial<CheckCliOptions>, RegExp]> = [
    [[CLEAN], { format: 'xml' }, /--format must be one of text, json, sarif, junit/],
    [[CLEAN], { failOn: ['findings,bogus'] }, /--fail-on takes a list of findings, spec, errors, is-error, unanswered, assertions, schema, security \(or all, none\), got "bogus"/],
    [[CLEAN], { failOn: ['none,errors'] }, /none cannot be combined/],
    [[CLEAN], { maxMs: ['tools/call'] }, /--max-ms takes <method-or-tool>=<milliseconds>/],
    [[CLEAN], { maxMs: ['=5'] }, /--max-ms takes/],
    [[CLEAN], { maxMs: ['echo=fast'] }, /--max-ms takes/],
    [[CLEAN], { expectTool: [''] }, /--expect-tool needs a tool name/],
    [[CLEAN, 'other.log'], {}, /check reads one log file, got 2 arguments/],
    [[CLEAN], { session: 'all' }, /check judges one session; pass --session last or a session id/],
    [[CLEAN], { call: ['echo={}'] }, /--call goes with --run/],
    [[CLEAN], { timeout: '5' }, /--timeout goes with --run/],
    [[], { run: true }, /missing the server command/],
    [['node'], { run: true, session: 'last' }, /--session reads an existing log/],
    [['node'], { run: true, timeout: '0' }, /--timeout takes milliseconds/],
    [['node'], { run: true, call: ['echo={"a":'] }, /--call echo: the arguments are not JSON/],
    [['node'], { run: true, call: ['echo=[1]'] }, /--call echo: the arguments must be a JSON object/],
    [['node'], { run: true, call: ['=1'] }, /--call takes <tool>=<json arguments>/],
    [['node'], { run: true, name: '../x' }, /--name must be/],
  ];
  for (const [operands, opts, message] of bad) {
    it(`rejects ${JSON.stringify(opts)} ${operands.length} operand(s) with a usage error`, () => {
      expect(() => planCheck(operands, { format: 'text', ...opts })).toThrow(message);
      try {
        planCheck(operands, { format: 'text', ...opts });
      } catch (err) {
        expect((err as { code?: string }).code).toBe('USAGE');
      }
    });
  }

  it('parses --run with calls, timeout, log and name', () => {
    const plan = planCheck(['node', 'server.js', '--port', '3'], { format: 'SARIF', run: true, call: ['echo={"message":"hi"}', 'ping-tool'], timeout: '2500', log: 'x.log', name: 'srv' });
    expect(plan.format).toBe('sarif');
    expect(plan.run).toEqual({ command: 'node', args: ['server.js', '--port', '3'], calls: [{ tool: 'echo', arguments: { message: 'hi' } }, { tool: 'ping-tool', arguments: {} }], timeoutMs: 2500, log: 'x.log', name: 'srv' });
    expect(planCheck(['node'], { format: 'text', run: true }).run?.timeoutMs).toBe(15000);
  });
});
