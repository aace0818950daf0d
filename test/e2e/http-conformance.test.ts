/**
 * A peer's test suite through HTTP mode: the official MCP conformance suite
 * (@modelcontextprotocol/conformance 0.1.13, its server scenarios) run against server-everything's
 * Streamable HTTP mode directly and through `mcp-tap http` gives the same verdict for every scenario —
 * except DNS-rebinding protection, which mcp-tap adds (it refuses non-loopback Host headers), so that
 * scenario passes through the tap whatever the server does. The log pairs every request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { TOOLS_DIR, withTestTools } from '../helpers/test-tools.js';

// the suite comes from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('http-conformance.test.ts');
const CONFORMANCE = join(TOOLS_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const tmp = tempDir('mcp-tap-conformance-');
afterAll(() => tmp.cleanup());

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Runs every server scenario against `url`; scenario → passed. */
async function verdicts(url: string): Promise<Map<string, boolean>> {
  const { stdout } = await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', url], { cwd: tmp.dir, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }), // exit 1 when a scenario fails: the summary is what counts
  );
  const summary = stdout.slice(stdout.indexOf('=== SUMMARY ==='));
  const out = new Map<string, boolean>();
  for (const m of summary.matchAll(/^([✓✗]) ([a-z0-9-]+): (\d+) passed, (\d+) failed$/gm)) out.set(m[2]!, m[1] === '✓');
  return out;
}

describe.runIf(TOOLS)('conformance suite through mcp-tap http', () => {
  it('gives the same verdict per server scenario as a direct connection, and the log pairs every request', async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let serverErr = '';
    server.stderr.on('data', (d: Buffer) => (serverErr += d.toString()));
    try {
      await waitFor(() => serverErr.includes(`listening on port ${port}`), 20_000, 'server-everything to listen');
      const upstream = `http://127.0.0.1:${port}/mcp`;
      const direct = await verdicts(upstream);
      expect(direct.size, 'scenarios run directly').toBeGreaterThanOrEqual(25);
      const log = join(tmp.dir, 'conformance.jsonrpc.log');
      const tap = runTap(['http', upstream, '--port', '0', '--log', log]);
      try {
        await tap.waitStderr(/listening on (\S+)/);
        const url = /listening on (\S+)/.exec(tap.stderr())![1]!;
        const tapped = await verdicts(url);
        const expected = new Map(direct);
        expected.set('dns-rebinding-protection', true);
        expect(Object.fromEntries(tapped)).toEqual(Object.fromEntries(expected));
      } finally {
        tap.child.kill('SIGTERM');
        await tap.exited();
      }
      const recs = readRecords(log);
      const bySession = new Map<string, Rec[]>();
      for (const r of recs) bySession.set(r.session, [...(bySession.get(r.session) ?? []), r]);
      let requests = 0;
      for (const rs of bySession.values()) {
        for (const q of rs.filter((r) => r.kind === 'request')) {
          requests++;
          expect(rs.some((a) => (a.kind === 'response' || a.kind === 'error') && a.reqSeq === q.seq), `answer to ${String(q.method)} (seq ${q.seq})`).toBe(true);
        }
      }
      expect(requests).toBeGreaterThan(30);
      expect(recs.some((r) => r.event === 'refused')).toBe(true);
    } finally {
      server.kill('SIGTERM');
    }
  }, 240_000);
});
