/**
 * No false alarm on the official reference servers (issue 30): `check --run --fail-on security` drives
 * server-everything, server-filesystem, server-memory and server-sequential-thinking through mcp-tap with
 * the SDK client — their tools, prompts and resources listed, a few harmless tools called — and the
 * security lens raises nothing. Each run must have listed tools, so a run that saw nothing cannot pass.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

const MODULES = join(ROOT, 'node_modules', '@modelcontextprotocol');
let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('mcp-tap-reference-'));
  writeFileSync(join(dir, 'note.txt'), 'hello from the reference test\n');
});
afterAll(() => cleanup());

interface Report { passed: boolean; summary: { tools: number | null; security: number }; problems: Array<{ ruleId: string; category: string; message: string }> }

async function checkRun(name: string, calls: string[], command: string[], env: Record<string, string> = {}): Promise<Report> {
  const run = runTap(['check', '--run', '--fail-on', 'security', '--format', 'json', '--timeout', '15000', '--name', name, ...calls.flatMap((c) => ['--call', c]), '--', ...command], {
    env: { XDG_STATE_HOME: join(dir, 'state'), ...env },
  });
  run.child.stdin.end();
  await run.exited(40_000);
  return JSON.parse(run.stdout().toString('utf8')) as Report;
}

describe.concurrent('the security lens on the reference servers', () => {
  it.each([
    ['everything', ['echo={"message":"hi"}', 'get-sum={"a":1,"b":2}', 'get-tiny-image'], () => ['node', EVERYTHING, 'stdio'], {}],
    ['filesystem', ['list_allowed_directories', `read_text_file={"path":"${'DIR'}/note.txt"}`], () => ['node', join(MODULES, 'server-filesystem', 'dist', 'index.js'), dir], {}],
    ['memory', ['read_graph'], () => ['node', join(MODULES, 'server-memory', 'dist', 'index.js')], { MEMORY_FILE_PATH: 'DIR/memory.jsonl' }],
    ['sequential-thinking', ['sequentialthinking={"thought":"a first thought","nextThoughtNeeded":false,"thoughtNumber":1,"totalThoughts":1}'], () => ['node', join(MODULES, 'server-sequential-thinking', 'dist', 'index.js')], { DISABLE_THOUGHT_LOGGING: 'true' }],
  ] as Array<[string, string[], () => string[], Record<string, string>]>)('%s: no security finding', async (name, calls, command, env) => {
    const fill = (s: string) => s.replaceAll('DIR', dir);
    const report = await checkRun(name, calls.map(fill), command(), Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)])));
    expect(report.summary.tools, JSON.stringify(report.problems)).toBeGreaterThan(0);
    expect(report.problems.filter((p) => p.category === 'security')).toEqual([]);
    expect(report.summary.security).toBe(0);
  }, 60_000);
});
