/**
 * The log cannot be written (issue 2 §5): the relay works unchanged and exactly one warning reaches
 * stderr. Tests run as root, which ignores directory permissions, so "unwritable" is made with a parent
 * that is a regular file (cannot be opened) and /dev/full (every write fails with ENOSPC).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, type TapRun, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const box = tapSandbox();

/**
 * Relays request/response round trips through `cat.mjs` for at least `minMs` (longer than the sink's
 * one-second retry, so a sink that re-warns on every retry is caught), then closes stdin.
 */
async function session(args: string[], env: NodeJS.ProcessEnv = {}, minMs = 1300): Promise<{ sent: Buffer; r: TapRun; code: number | null }> {
  const r = runTap([...args, '--', process.execPath, fixture('cat.mjs')], { env });
  box.track(r);
  const sent: Buffer[] = [];
  const started = Date.now();
  for (let i = 0; i === 0 || Date.now() - started < minMs; i++) {
    const line = Buffer.from(`{"jsonrpc":"2.0","id":${i},"method":"ping"}\r\n\u0000\xff`, 'latin1');
    sent.push(line);
    await r.write(line);
    const expected = Buffer.concat(sent);
    await waitFor(() => r.stdout().length >= expected.length, 5000, `echo of line ${i}`);
  }
  r.child.stdin.end();
  const { code } = await r.exited();
  return { sent: Buffer.concat(sent), r, code };
}

/** mcp-tap's own stderr lines other than the startup announcement. */
const warnings = (stderr: string): string[] => tapLines(stderr).filter((l) => !l.startsWith('mcp-tap: logging to '));

describe('log cannot be written', () => {
  it('parent of --log is a regular file: relay unchanged, one warning', async () => {
    const notADir = join(box.dir, 'file');
    writeFileSync(notADir, 'x');
    const log = join(notADir, 'sub', 'x.jsonrpc.log');
    const { sent, r, code } = await session(['--log', log]);
    expect(code).toBe(0);
    expect(r.stdout().equals(sent)).toBe(true);
    const w = warnings(r.stderr());
    expect(w).toHaveLength(1);
    expect(w[0]).toContain(log);
    expect(w[0]).toMatch(/relaying without a log/);
    expect(tapLines(r.stderr())).toHaveLength(1); // no "logging to" for a log that is not there
    expect(r.stderr()).not.toMatch(/^\s+at /m);
  });

  it('MCP_TAP_LOG names an unopenable path: same', async () => {
    const notADir = join(box.dir, 'file2');
    writeFileSync(notADir, 'x');
    const { sent, r, code } = await session([], { MCP_TAP_LOG: join(notADir, 'x.log') }, 0);
    expect(code).toBe(0);
    expect(r.stdout().equals(sent)).toBe(true);
    expect(warnings(r.stderr())).toHaveLength(1);
  });

  it('full disk (/dev/full): relay unchanged, one warning for the whole session', async () => {
    const { sent, r, code } = await session(['--log', '/dev/full']);
    expect(code).toBe(0);
    expect(r.stdout().equals(sent)).toBe(true);
    const w = warnings(r.stderr());
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/ENOSPC|no space/);
    expect(r.stderr()).not.toMatch(/^\s+at /m);
  });

  it('--no-log: relay only, nothing written, nothing said', async () => {
    const { sent, r, code } = await session(['--no-log'], { XDG_STATE_HOME: box.dir }, 0);
    expect(code).toBe(0);
    expect(r.stdout().equals(sent)).toBe(true);
    expect(tapLines(r.stderr())).toEqual([]);
    expect(existsSync(join(box.dir, 'mcp-tap'))).toBe(false);
  });
});
