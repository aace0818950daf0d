/**
 * A dual-era client (as Python SDK 2.x and fastmcp 4 behave) probes with server/discover, an older SDK
 * server refuses it with -32601, the client falls back to initialize and the server answers an older
 * version than offered. That session is legal: check passes with the default and with --fail-on errors,
 * and tail, stats and export show a refused probe, not an error.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

const run = promisify(execFile);
const CLIENT = join(ROOT, 'test', 'fixtures', 'clients', 'dual-era-client.mjs');
const FIXTURE_LOG = join(ROOT, 'test', 'fixtures', 'logs', 'dual-era-fallback.jsonl');
let dir: string;
let cleanup: () => void;
let liveLog: string;

async function tap(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-dual-era-'));
  liveLog = join(dir, 'older.jsonrpc.log');
  const r = await run(process.execPath, [CLIENT, process.execPath, CLI, '--log', liveLog, '--', process.execPath, fixture('older-sdk-server.mjs')], { timeout: 20_000 });
  expect(JSON.parse(r.stdout)).toEqual({ probe: -32601, probeMessage: 'Method not found', protocolVersion: '2025-06-18', tools: ['echo'], echo: 'echo: hi', exit: 0 });
}, 30_000);
afterAll(() => cleanup());

describe.concurrent('a refused discovery probe with its fallback, recorded live and as a fixture', () => {
  it('the live log has the probe, its -32601 and the fallback handshake, and no finding', () => {
    const recs = readRecords(liveLog);
    const msgs = recs.filter((r) => r.kind !== 'event').map((r) => `${r.from} ${r.kind} ${r.method}`);
    expect(msgs.slice(0, 4)).toEqual(['client request server/discover', 'server error server/discover', 'client request initialize', 'server response initialize']);
    expect(recs.flatMap((r) => (Array.isArray(r.notes) ? r.notes : []))).toEqual([]);
    expect(recs.find((r) => r.event === 'lifecycle')).toMatchObject({ era: 'handshake', protocolVersion: '2025-06-18', offeredVersion: '2025-11-25' });
  });

  for (const which of ['live', 'fixture'] as const) {
    it(`check passes the ${which} session with the default and with --fail-on errors`, async () => {
      const file = which === 'live' ? liveLog : FIXTURE_LOG;
      const plain = await tap(['check', file]);
      expect(plain.code, plain.stdout + plain.stderr).toBe(0);
      expect(plain.stdout).toContain('  session   initialize');
      expect(plain.stdout).toContain('(fallback: server/discover refused (-32601))');
      const errors = await tap(['check', file, '--fail-on', 'errors', '--format', 'json']);
      expect(errors.code, errors.stdout + errors.stderr).toBe(0);
      const report = JSON.parse(errors.stdout);
      expect(report.problems).toEqual([]);
      expect(report.requests.map((q: { method: string; status: string }) => `${q.method} ${q.status}`)).toEqual(['server/discover refused-probe', 'initialize ok', 'tools/list ok', 'tools/call ok']);
      expect(report.summary).toMatchObject({ errors: 0, refusedProbes: 1 });
    });
  }

  it('tail, stats and the Markdown export show a refused probe, not an error', async () => {
    const tail = await tap(['tail', FIXTURE_LOG, '--no-color']);
    expect(tail.code, tail.stderr).toBe(0);
    const probeLine = tail.stdout.split('\n').find((l) => l.includes('server/discover') && l.includes('-32601'));
    expect(probeLine).toContain('refused probe -32601 Method not found: the client falls back to initialize');
    expect(probeLine).not.toContain('✗');
    const errorsOnly = await tap(['tail', FIXTURE_LOG, '--no-color', '--errors']);
    expect(errorsOnly.stdout).not.toContain('server/discover');

    const stats = await tap(['stats', FIXTURE_LOG, '--json']);
    const discover = JSON.parse(stats.stdout).methods.find((m: { method: string }) => m.method === 'server/discover');
    expect(discover).toMatchObject({ count: 1, answered: 1, errors: 0, refused: 1 });
    const statsText = await tap(['stats', FIXTURE_LOG]);
    expect(statsText.stdout).toContain('refused discovery probes: 1');

    const md = await tap(['export', FIXTURE_LOG, '--format', 'md']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('| Error responses | 0 |');
    expect(md.stdout).toContain('| Refused discovery probes (fallback) | 1 |');
    expect(md.stdout).toContain('refused probe (-32601): the client falls back to initialize');
    expect(md.stdout).not.toContain('**error**');

    const ls = await tap(['ls', '--json', '--dir', dir]);
    expect(ls.code, ls.stderr).toBe(0);
    expect(JSON.parse(ls.stdout)).toMatchObject([{ errors: 0 }]);
  });
});
