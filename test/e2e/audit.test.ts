/**
 * `mcp-tap audit` over two servers' logs (issue 30): the poisoned server and the calculator both offer
 * `add`; audit reports the shadowed name (text, JSON, SARIF with security-severity), the poisoned
 * server's own security findings and nothing of the calculator's but the shared name, and what each
 * costs in tokens before the first message.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

let dir: string;
let cleanup: () => void;

async function cli(args: string[]) {
  const run = runTap(args, { env: { XDG_STATE_HOME: join(dir, 'state') } });
  run.child.stdin.end();
  const { code } = await run.exited(30_000);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr() };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-audit-'));
  const logs = join(dir, 'logs');
  await Promise.all([
    cli(['check', '--run', '--fail-on', 'none', '--name', 'poisoned', '--log', join(logs, 'poisoned.jsonrpc.log'), '--', process.execPath, fixture('poisoned.mjs')]),
    cli(['check', '--run', '--fail-on', 'none', '--name', 'calc', '--log', join(logs, 'calc.jsonrpc.log'), '--', process.execPath, fixture('replay-calc.mjs')]),
  ]);
}, 60_000);
afterAll(() => cleanup?.());

interface Audit {
  servers: Array<{ name: string; tools: number; contextTokens: number; findings: number }>;
  findings: Array<{ ruleId: string; severity: string; server: string; servers?: string[]; tool?: string; line?: number }>;
}

describe('mcp-tap audit', () => {
  it('reports the tool name both servers offer, in JSON, with every server and its cost', async () => {
    const r = await cli(['audit', join(dir, 'logs'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as Audit;
    expect(a.servers.map((s) => s.name).sort()).toEqual(['calc', 'poisoned']);
    for (const s of a.servers) expect(s.contextTokens).toBeGreaterThan(50);
    const shadowed = a.findings.filter((f) => f.ruleId === 'tool-shadowed');
    expect(shadowed).toHaveLength(1);
    expect(shadowed[0]).toMatchObject({ tool: 'add', severity: 'high' });
    expect(shadowed[0]!.servers!.sort()).toEqual(['calc', 'poisoned']);
    const own = a.findings.filter((f) => f.ruleId !== 'tool-shadowed');
    expect(new Set(own.map((f) => f.server))).toEqual(new Set(['poisoned']));
    expect(own.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['unicode-tag-characters', 'unicode-bidi-control', 'injection-pseudo-tag', 'injection-secret-reference']));
  });

  it('shows the shadowed name in its table, and exits 1 with --exit-code', async () => {
    const r = await cli(['audit', join(dir, 'logs'), '--exit-code']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^mcp-tap audit: 2 servers, 1 shadowed tool name, \d+ security findings/);
    expect(r.stdout).toMatch(/high +tool-shadowed +\S+ line \d+: tool "add" is offered by 2 servers/);
  });

  it('writes SARIF with one artifact per log and security severities', async () => {
    const r = await cli(['audit', join(dir, 'logs'), '--format', 'sarif']);
    const run = (JSON.parse(r.stdout) as { runs: Array<{ artifacts: unknown[]; results: Array<{ ruleId: string; level: string; properties: Record<string, unknown> }>; tool: { driver: { rules: Array<{ id: string; properties: Record<string, unknown> }> } } }> }).runs[0]!;
    expect(run.artifacts).toHaveLength(2);
    const shadow = run.results.find((x) => x.ruleId === 'tool-shadowed')!;
    expect(shadow.level).toBe('error');
    expect(run.tool.driver.rules.find((x) => x.id === 'tool-shadowed')!.properties).toMatchObject({ tags: ['security', 'mcp'], 'security-severity': '7.4' });
  });

  it('says which path does not exist', async () => {
    const r = await cli(['audit', join(dir, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file or directory');
  });
});
