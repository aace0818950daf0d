/** `mcp-tap demo` end to end: the built CLI, a real server through mcp-tap, the log read back. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runTap } from '../helpers/run-tap.js';
import { tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

let tmp: { dir: string; cleanup: () => void };
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.cleanup());

describe('mcp-tap demo', () => {
  it('drives server-everything through mcp-tap, exits 0, and reports the log it wrote', async () => {
    const log = join(tmp.dir, 'demo.jsonrpc.log');
    const r = runTap(['demo', '--log', log]);
    const { code } = await r.exited(30_000);
    const out = r.stdout().toString();
    expect(code, r.stderr()).toBe(0);
    expect(out).toContain(log);
    for (const step of ['initialize', 'tools/list', 'tools/call echo', 'tools/call get-sum', 'tools/call trigger-long-running-operation', 'resources/read', 'ping']) {
      expect(out).toMatch(new RegExp(`✓ ${step.replace('/', '\\/')}\\s`));
    }
    expect(out).toMatch(/progress 4\/4/);
    expect(out).toContain('the host sent and received exactly these');
    expect(out).toMatch(/findings\s+none/);
    expect(out).not.toMatch(/\x1b\[/); // not a terminal: no colours

    const recs = readRecords(log);
    const requests = recs.filter((x) => x.kind === 'request' && x.from === 'client').map((x) => x.method);
    expect(requests).toEqual(['initialize', 'tools/list', 'tools/call', 'tools/call', 'tools/call', 'resources/list', 'resources/read', 'ping']);
    const responses = recs.filter((x) => x.kind === 'response' && x.from === 'server');
    expect(responses).toHaveLength(requests.length);
    expect(recs.filter((x) => (x.msg as { method?: string } | undefined)?.method === 'notifications/progress')).toHaveLength(4);
    expect(recs[0]).toMatchObject({ event: 'start', name: 'demo' });
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });

  it('--json with the bundled server: a machine-readable report whose numbers match the log', async () => {
    const log = join(tmp.dir, 'bundled.jsonrpc.log');
    const r = runTap(['demo', '--server', 'bundled', '--json', '--log', log]);
    const { code } = await r.exited(30_000);
    expect(code, r.stderr()).toBe(0);
    const report = JSON.parse(r.stdout().toString()) as {
      ok: boolean;
      log: string;
      server: { kind: string; name: string };
      steps: Array<{ step: string; ok: boolean; ms: number }>;
      progress: unknown[];
      host: { sent: number; received: number };
      recorded: { records: number; messages: { client: number; server: number }; answered: number; calls: Array<{ method: string; ms: number }>; notes: unknown[] };
    };
    expect(report).toMatchObject({ ok: true, log, server: { kind: 'bundled', name: 'mcp-tap-demo-server' } });
    expect(report.steps.map((s) => s.step)).toContain('tools/call slow-count');
    expect(report.progress).toHaveLength(4);
    expect(report.recorded.messages).toEqual({ client: report.host.sent, server: report.host.received });
    expect(report.recorded.answered).toBe(8);
    expect(report.recorded.calls.every((c) => c.ms >= 0)).toBe(true);
    const recs = readRecords(log);
    expect(recs.filter((x) => x.session === recs[0]!.session)).toHaveLength(report.recorded.records);
  });

  it('without --log writes demo.jsonrpc.log in the default log directory; a second run appends a session', async () => {
    const state = join(tmp.dir, 'state');
    for (let i = 0; i < 2; i++) {
      const r = runTap(['demo', '--server', 'bundled'], { env: { XDG_STATE_HOME: state, MCP_TAP_LOG: '' } });
      const { code } = await r.exited(30_000);
      expect(code, r.stderr()).toBe(0);
      expect(r.stdout().toString()).toContain(join(state, 'mcp-tap', 'demo.jsonrpc.log'));
    }
    const file = join(state, 'mcp-tap', 'demo.jsonrpc.log');
    expect(existsSync(file)).toBe(true);
    expect(statSync(join(state, 'mcp-tap')).mode & 0o777).toBe(0o700);
    expect(new Set(readRecords(file).map((x) => x.session)).size).toBe(2);
  });

  it('rejects a bad --server with a usage error', async () => {
    const r = runTap(['demo', '--server', 'nope']);
    expect((await r.exited()).code).toBe(2);
    expect(r.stderr().trim()).toMatch(/^mcp-tap: --server must be auto, everything or bundled/);
  });
});
