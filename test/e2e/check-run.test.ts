/**
 * `mcp-tap check --run` end to end (the built CLI): passes against server-everything, and fails with the
 * expected rule ids against each broken fixture server — stdout noise, no initialize answer, a crash,
 * broken tool schemas, a command that does not exist — without hanging.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir('mcp-tap-check-run-')));
afterAll(() => cleanup());

async function check(args: string[], timeoutMs = 30_000) {
  const run = runTap(['check', ...args]);
  run.child.stdin.end();
  const { code } = await run.exited(timeoutMs);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr() };
}

function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as Record<string, unknown>;
  delete schema['$schema'];
  delete schema['id'];
  const ajv = new Ajv.default({ strict: false, validateSchema: false, unicodeRegExp: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

const ruleIdsOf = (sarif: { runs: Array<{ results: Array<{ ruleId: string; level: string }> }> }, level = 'error') =>
  [...new Set(sarif.runs[0]!.results.filter((r) => r.level === level).map((r) => r.ruleId))].sort();

describe.concurrent('check --run', () => {
  it('passes against server-everything, with a tool call and assertions, and reports the session', async () => {
    const out = join(dir, 'everything.json');
    const log = join(dir, 'everything.jsonrpc.log');
    const r = await check([
      '--run', '--format', 'json', '-o', out, '--log', log,
      '--call', 'echo={"message":"hi from check"}', '--call', 'get-sum={"a":2,"b":3}',
      '--expect-tool', 'echo', '--forbid-tool', 'no-such-tool', '--max-ms', 'echo=10000', '--fail-on', 'all',
      '--', 'node', EVERYTHING, 'stdio',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.passed).toBe(true);
    expect(report.problems).toEqual([]);
    expect(report.mode).toBe('run');
    expect(report.summary.tools).toBeGreaterThan(5);
    expect(report.summary.initializeMs).toBeGreaterThan(0);
    expect(report.summary).toMatchObject({ unanswered: 0, errors: 0, schemaProblems: 0, ended: true });
    const methods = report.requests.map((q: { method: string; target?: string }) => q.target ?? q.method);
    expect(methods).toEqual(['initialize', 'tools/list', 'resources/list', 'prompts/list', 'ping', 'echo', 'get-sum']);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(existsSync(log)).toBe(true); // --log keeps it
    expect(r.stderr).toMatch(/^mcp-tap check: PASS/m); // the verdict, since the report went to a file
  });

  it('fails on stdout noise with stdout-not-json (valid SARIF located at the noisy line)', async () => {
    const out = join(dir, 'noise.sarif');
    const r = await check(['--run', '--format', 'sarif', '-o', out, '--timeout', '5000', '--', 'node', fixture('broken-noise.mjs')]);
    expect(r.code, r.stderr).toBe(1);
    const sarif = JSON.parse(readFileSync(out, 'utf8'));
    const validate = sarifValidator();
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(ruleIdsOf(sarif)).toEqual(['stdout-not-json']);
    const result = sarif.runs[0].results[0];
    const logPath = new URL(result.locations[0].physicalLocation.artifactLocation.uri).pathname;
    const line = readFileSync(logPath, 'utf8').split('\n')[result.locations[0].physicalLocation.region.startLine - 1]!;
    expect(JSON.parse(line)).toMatchObject({ kind: 'invalid', raw: 'Server started on stdio (v0.0.1)' });
    expect(r.stderr).toContain(`mcp-tap: the log of this session is kept at ${logPath}`);
    expect(dirname(logPath)).toMatch(/mcp-tap-check-/);
    rmSync(dirname(logPath), { recursive: true, force: true });
  });

  it('fails on a server that never answers initialize with initialize-timeout, within the deadline', async () => {
    const started = Date.now();
    const r = await check(['--run', '--timeout', '3000', '--format', 'json', '--log', join(dir, 'silent.log'), '--', 'node', fixture('broken-silent.mjs')], 20_000);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { ruleId: string }) => p.ruleId), JSON.stringify(report.problems)).toEqual(['unanswered-request', 'initialize-timeout']);
    expect(report.failed).toEqual(['findings', 'unanswered']);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('fails on a crash with server-exited-early and the request left unanswered', async () => {
    const r = await check(['--run', '--timeout', '5000', '--format', 'json', '--log', join(dir, 'crash.log'), '--', 'node', fixture('broken-crash.mjs')]);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['unanswered-request', 'server-exited-early']);
    expect(report.problems[0].message).toContain('tools/list');
    expect(report.problems[1].message).toBe('the server exited with status 3 while the client was still connected');
  });

  it('reports a server killed by a signal it was not sent, after its stdin closed, as server-exit-nonzero', async () => {
    const log = join(dir, 'signal.log');
    const tap = runTap(['--log', log, '--', process.execPath, fixture('die-by-signal.mjs'), 'SIGKILL']);
    await tap.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } })}\n`);
    await tap.waitStderr('logging to');
    tap.child.stdin.end();
    await tap.exited(15_000);
    const r = await check([log, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['server-exit-nonzero']);
    expect(report.problems[0].message).toBe('the server was killed by SIGKILL after its stdin closed, a signal it was not sent');
  });

  it('also when mcp-tap forwarded a different signal (SIGTERM) and the server died by another (SIGKILL)', async () => {
    const log = join(dir, 'forwarded.log');
    const tap = runTap(['--log', log, '--', process.execPath, fixture('die-by-signal.mjs'), 'SIGKILL']);
    await tap.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } })}\n`);
    await tap.waitStderr('logging to');
    await waitFor(() => readFileSync(log, 'utf8').includes('"event":"lifecycle"'), 10_000, 'the initialize answer in the log');
    tap.child.kill('SIGTERM');
    await tap.exited(15_000);
    const r = await check([log, '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['server-exit-nonzero']);
    expect(report.problems[0].message).toBe('the server was killed by SIGKILL, a signal it was not sent (mcp-tap sent only SIGTERM)');
  });

  it('reports broken tool schemas: the SDK rejects the listing (default) and --fail-on schema names each problem', async () => {
    const r = await check(['--run', '--timeout', '5000', '--format', 'junit', '--fail-on', 'schema', '--log', join(dir, 'schema.log'), '--', 'node', fixture('broken-schema.mjs')]);
    expect(r.code, r.stderr).toBe(1);
    const failures = [...r.stdout.matchAll(/<failure type="([^"]+)"/g)].map((m) => m[1]).sort();
    // the listing's "type": "array" inputSchema also breaks ListToolsResult (InputSchema.type is "object"): schema-violation
    expect(failures).toEqual(['schema-violation', 'sdk-rejected-answer', 'sdk-rejected-answer', 'tool-schema-invalid', 'tool-schema-not-object', 'tool-schema-required-missing']);
    const byDefault = await check(['--run', '--timeout', '5000', '--format', 'json', '--log', join(dir, 'schema.log'), '--', 'node', fixture('broken-schema.mjs')]);
    expect(byDefault.code).toBe(1);
    const report = JSON.parse(byDefault.stdout);
    expect(report.failed).toEqual(['findings', 'spec']);
    expect(report.problems.find((p: { ruleId: string }) => p.ruleId === 'sdk-rejected-answer').message).toMatch(/tools\/list .*\/tools\/1\/inputSchema\/type/);
  });

  it('fails with server-spawn-failed when the command does not exist', async () => {
    const r = await check(['--run', '--format', 'json', '--log', join(dir, 'spawn.log'), '--', 'mcp-tap-no-such-command-xyz']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['server-spawn-failed']);
    expect(report.problems[0].message).toContain('command not found');
  });

  it('exits 2 with one line for usage errors', async () => {
    for (const args of [['--run'], ['--run', '--timeout', 'soon', '--', 'node', 'x.js'], ['--call', 'x={}', 'some.log'], ['--bogus-flag']]) {
      const r = await check(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^mcp-tap: /);
    }
  });
});
