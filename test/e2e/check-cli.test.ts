/**
 * `mcp-tap check`, `baseline save` and `diff` on fixture logs through the built CLI: exit statuses,
 * formats to stdout and files, and one-line errors.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

const LOGS = join(ROOT, 'test', 'fixtures', 'logs');
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir('mcp-tap-check-cli-')));
afterAll(() => cleanup());

async function cli(args: string[]) {
  const run = runTap(args, { env: { XDG_STATE_HOME: join(dir, 'state') } });
  run.child.stdin.end();
  const { code } = await run.exited(20_000);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr() };
}

describe.concurrent('check on a log', () => {
  it('exits 0 for a clean session and 1 for a failing one, printing the text report', async () => {
    const pass = await cli(['check', join(LOGS, 'check-clean.jsonl')]);
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toMatch(/^mcp-tap check: PASS/);
    const fail = await cli(['check', join(LOGS, 'check-problems.jsonl'), '--max-ms', 'tools/call=5']);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/^mcp-tap check: FAIL/);
    expect(fail.stdout).toContain('✗ max-ms-exceeded');
  });

  it('gates on token budgets: --max-context-tokens and --max-result-tokens pass and fail as assertions', async () => {
    const log = join(LOGS, 'report-basic.jsonl');
    const pass = await cli(['check', log, '--fail-on', 'assertions', '--max-context-tokens', '1000', '--max-result-tokens', '1000']);
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.stdout).toMatch(/^ {2}context {3}24 tokens before the first message \(o200k_base\) · 3 tool results, 27 tokens$/m);
    expect(pass.stdout).toContain('✓ --max-context-tokens 1000');
    const fail = await cli(['check', log, '--fail-on', 'assertions', '--max-context-tokens', '20']);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/✗ max-context-tokens-exceeded .*the tool definitions cost 24 tokens \(o200k_base\), over the 20 limit/);
    const bad = await cli(['check', log, '--max-result-tokens', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-result-tokens takes a number of tokens');
  });

  it('writes SARIF to a file (mode 0600) and the verdict to stderr; JUnit to stdout', async () => {
    const out = join(dir, 'problems.sarif');
    const r = await cli(['check', join(LOGS, 'check-problems.jsonl'), '--format', 'sarif', '-o', out, '--fail-on', 'errors']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^mcp-tap check: FAIL/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const sarif = JSON.parse(readFileSync(out, 'utf8'));
    expect(sarif.runs[0].results.filter((x: { level: string }) => x.level === 'error').map((x: { ruleId: string }) => x.ruleId)).toEqual(['jsonrpc-error']);
    const junit = await cli(['check', join(LOGS, 'check-multi.jsonl'), '--session', 'multi-aaaa', '--format', 'junit']);
    expect(junit.code).toBe(1);
    expect(junit.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="mcp-tap check" tests="\d+" failures="1"/);
  });

  it('reads the most recent log of the default directory without a file argument', async () => {
    const logs = join(dir, 'state', 'mcp-tap');
    await import('node:fs').then((fs) => fs.mkdirSync(logs, { recursive: true }));
    writeFileSync(join(logs, 'demo.jsonrpc.log'), readFileSync(join(LOGS, 'check-clean.jsonl')));
    const r = await cli(['check', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ session: 'clean-0001', passed: true });
  });

  it('refuses --session all (exit 2, one line) instead of silently checking one session', async () => {
    const r = await cli(['check', join(LOGS, 'check-multi.jsonl'), '--session', 'all']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('mcp-tap: check judges one session; pass --session last or a session id (mcp-tap ls lists them), once per session\n');
  });

  it('exits 2 with one line for a file that is not a log and for an unknown session', async () => {
    const notLog = join(dir, 'not-a-log.txt');
    writeFileSync(notLog, 'hello\nworld\n');
    for (const args of [['check', notLog], ['check', join(LOGS, 'check-clean.jsonl'), '--session', 'nope'], ['check', join(dir, 'missing.log')]]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('baseline save and diff', () => {
  it('saves a baseline, diffs it against a changed session (exit 1 with --exit-code) and against itself (exit 0)', async () => {
    const baseline = join(dir, 'baseline.json');
    const save = await cli(['baseline', 'save', join(LOGS, 'check-diff-a.jsonl'), '-o', baseline]);
    expect(save.code, save.stderr).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8'))).toMatchObject({ mcpTapBaseline: 1, source: { session: 'diff-aaaa' } });

    const changed = await cli(['diff', baseline, join(LOGS, 'check-diff-b.jsonl'), '--exit-code']);
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toMatch(/^mcp-tap diff: 13 differences/);
    expect(changed.stdout).toContain('  + delete-everything');

    const noExitCode = await cli(['diff', baseline, join(LOGS, 'check-diff-b.jsonl'), '--format', 'json', '--min-ms', '10', '--ratio', '1.4']);
    expect(noExitCode.code).toBe(0);
    const json = JSON.parse(noExitCode.stdout);
    expect(json.thresholds).toEqual({ ratio: 1.4, minMs: 10 });
    expect(json.differences.filter((d: { area: string }) => d.area === 'latency').map((d: { name: string }) => d.name)).toEqual(['tools/call', 'echo', 'weather']);

    const same = await cli(['diff', baseline, `${join(LOGS, 'check-diff-a.jsonl')}#diff-a`, '--exit-code']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^mcp-tap diff: no differences/);

    const bad = await cli(['diff', baseline, join(LOGS, 'check-diff-b.jsonl'), '--ratio', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mcp-tap: --ratio takes a number ≥ 1, got "fast"\n');
  });
});
