/**
 * Issue 8, item 7: signals sent to mcp-tap. The server must never outlive mcp-tap: SIGINT twice kills at
 * once, a SIGTERM the server ignores escalates to SIGKILL after --grace, and when mcp-tap itself is
 * SIGKILLed (no handler can run) the parent-death watchdog stops the server's process group.
 * The watchdog needs POSIX process groups; on Windows only stdin EOF reaches the server (docs/reliability.md).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:os';
import { runTap, type TapRun, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { isAlive, readPid, waitDead, waitFor } from '../helpers/wait.js';
import { readRecords } from '../helpers/log.js';

const posix = process.platform !== 'win32';

const box = tapSandbox('mcp-tap-rel-sig-', ['server.pid', 'grandchild.pid']);
let pidFile: string;
let gcFile: string;
let log: string;
beforeEach(() => {
  pidFile = join(box.dir, 'server.pid');
  gcFile = join(box.dir, 'grandchild.pid');
  log = join(box.dir, 'sig.jsonrpc.log');
});

/** mcp-tap in front of a server that ignores SIGINT, SIGTERM and SIGHUP (and has a grandchild that does too). */
async function stubborn(grace: number): Promise<{ r: TapRun; server: number; grandchild: number }> {
  const r = runTap(['--log', log, '--grace', String(grace), '--', process.execPath, fixture('rel-stubborn.mjs')], {
    env: { TAP_PID_FILE: pidFile, REL_GRANDCHILD_PID: gcFile },
  });
  box.track(r);
  await r.waitStderr('ready\n');
  return { r, server: await readPid(pidFile), grandchild: await readPid(gcFile) };
}

describe.runIf(posix)('signals to mcp-tap', () => {
  it('SIGINT twice quickly: the second one kills the server at once (not after the 60 s grace period)', async () => {
    const { r, server } = await stubborn(60_000);
    r.child.kill('SIGINT');
    // the first one is forwarded; the server says it ignores it
    await r.waitStderr('got SIGINT, ignoring it');
    r.child.kill('SIGINT');
    const { code } = await r.exited(5000);
    expect(code).toBe(128 + constants.signals.SIGKILL);
    await waitDead(server, 2000);
    const recs = readRecords(log);
    expect(recs.filter((x) => x.event === 'signal').map((x) => x.signal)).toEqual(['SIGINT', 'SIGINT']);
    expect(recs.find((x) => x.event === 'kill')).toMatchObject({ signal: 'SIGKILL', reason: expect.stringMatching(/second signal/) });
    expect(recs.at(-1)).toMatchObject({ event: 'end', exitSignal: 'SIGKILL' });
  });

  it('SIGTERM while the server ignores SIGTERM: SIGKILL after --grace, exit 137', async () => {
    const grace = 700;
    const { r, server } = await stubborn(grace);
    const sent = Date.now();
    r.child.kill('SIGTERM');
    await r.waitStderr('got SIGTERM, ignoring it');
    expect(isAlive(server)).toBe(true);
    const { code } = await r.exited(10_000);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(grace - 50);
    expect(code).toBe(128 + constants.signals.SIGKILL);
    await waitDead(server, 2000);
    const recs = readRecords(log);
    const signal = recs.find((x) => x.event === 'signal')!;
    const kill = recs.find((x) => x.event === 'kill')!;
    expect(kill).toMatchObject({ signal: 'SIGKILL', reason: expect.stringMatching(/forwarded SIGTERM; the server did not exit within 700 ms/) });
    expect((kill.time as number) - (signal.time as number)).toBeGreaterThanOrEqual(grace - 50);
  });

  it('SIGKILL of mcp-tap: the watchdog stops the server and its grandchild (they ignore SIGTERM: SIGKILL after the grace)', async () => {
    const { r, server, grandchild } = await stubborn(500);
    r.child.kill('SIGKILL');
    const { signal } = await r.exited(5000);
    expect(signal).toBe('SIGKILL');
    // the watchdog: SIGTERM to the group, then SIGKILL after the grace period rounded up to a second
    await waitDead(server, 5000);
    await waitDead(grandchild, 5000);
  });

  it('SIGKILL of mcp-tap: a well-behaved server is stopped by the watchdog\'s SIGTERM right away', async () => {
    const r = runTap(['--log', log, '--grace', '30000', '--', process.execPath, fixture('wait-forever.mjs')], { env: { TAP_PID_FILE: pidFile } });
    box.track(r);
    await r.waitStderr('ready\n');
    const server = await readPid(pidFile);
    const killed = Date.now();
    r.child.kill('SIGKILL');
    await r.exited(5000);
    // well before the 30 s grace period: SIGTERM came first
    await waitDead(server, 5000);
    expect(Date.now() - killed).toBeLessThan(5000);
  });

  it('the watchdog stands down on a normal exit: it does not outlive mcp-tap or touch anything', async () => {
    const r = runTap(['--log', log, '--', process.execPath, fixture('cat.mjs')], { env: { TAP_PID_FILE: pidFile } });
    box.track(r);
    const server = await readPid(pidFile);
    if (process.platform === 'linux') await waitFor(() => watchdogFor(server), 5000, 'the watchdog to be running');
    r.child.stdin.end();
    expect((await r.exited()).code).toBe(0);
    await waitDead(server);
    // no /bin/sh watchdog left behind for this server's group
    await waitFor(() => !watchdogFor(server), 5000, 'the watchdog to exit');
  });
});

/** True while a watchdog shell for process group `pgid` is running. */
function watchdogFor(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('mcp-tap-watchdog') && cmd.includes(String(pgid)) && isAlive(Number(entry))) return true;
    } catch {
      // gone
    }
  }
  return false;
}
