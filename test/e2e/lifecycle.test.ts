/**
 * One test per process-lifecycle path of the relay (issue 2 §4). Each runs the built CLI with a fixture
 * server that records its pid, and asserts afterwards that no server process is left alive.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:os';
import { runTap, tapLines, type TapRun, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { processesWith, readPid, waitDead, waitFor } from '../helpers/wait.js';
import { events, readRecords } from '../helpers/log.js';

const box = tapSandbox(undefined, ['server.pid']);
let pidFile: string;
let logFile: string;
beforeEach(() => {
  pidFile = join(box.dir, 'server.pid');
  logFile = join(box.dir, 'tap.jsonrpc.log');
});

/** Starts mcp-tap with the pid-recording env and the test's log file. */
function tap(args: string[], extraEnv: NodeJS.ProcessEnv = {}): TapRun {
  const r = runTap(['--log', logFile, ...args], { env: { TAP_PID_FILE: pidFile, ...extraEnv } });
  box.track(r);
  return r;
}

/** No stack trace ever reaches stderr: no "at file:line" frames, no Node error banners. */
function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(stderr).not.toMatch(/Error \[ERR_|Uncaught|node:internal/);
}

describe('exit status', () => {
  it('passes the server exit code through', async () => {
    const r = tap(['--', 'node', fixture('exit-with.mjs'), '--code', '7']);
    const { code } = await r.exited();
    expect(code).toBe(7);
    await waitDead(await readPid(pidFile));
    const recs = readRecords(logFile);
    expect(recs.find((x) => x.event === 'exit')).toMatchObject({ code: 7, signal: null });
    expect(recs.at(-1)).toMatchObject({ event: 'end', exitCode: 7 });
  });

  it('delivers all output of a server that exited while the host was not reading, then its exit code', async () => {
    const r = runTap(['--log', logFile, '--grace', '300', '--', 'node', fixture('exit-with.mjs'), '--bytes', '300000', '--code', '5'], {
      env: { TAP_PID_FILE: pidFile },
      collect: false,
    });
    box.track(r);
    // the server is gone and the session ended while its last bytes still wait for the host
    await waitFor(() => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('"event":"end"'), 10_000, 'the end record');
    const out: Buffer[] = [];
    r.child.stdout.on('data', (c: Buffer) => out.push(c));
    const { code } = await r.exited();
    expect(code).toBe(5);
    expect(Buffer.concat(out).toString()).toBe(`${'x'.repeat(300000)}\n`);
    expect(r.stderr()).not.toContain('internal error');
    await waitDead(await readPid(pidFile));
  });

  it('reports a torn last line and the crash exit code (server crashes mid-line)', async () => {
    const r = tap(['--', 'node', fixture('crash-mid-line.mjs')]);
    const { code } = await r.exited();
    expect(code).toBe(3);
    expect(r.stdout().toString('latin1')).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"res');
    await waitDead(await readPid(pidFile));
    const server = readRecords(logFile).filter((x) => x.from === 'server' && x.kind !== 'stderr');
    expect(server).toHaveLength(2);
    expect(server[1]).toMatchObject({ partial: true, bytes: '{"jsonrpc":"2.0","id":2,"res'.length });
  });

  it('exits 128+N when the server dies of signal N', async () => {
    const r = tap(['--', 'node', fixture('exit-with.mjs'), '--signal', 'SIGUSR2']);
    const { code } = await r.exited();
    expect(code).toBe(128 + constants.signals.SIGUSR2);
    await waitDead(await readPid(pidFile));
    expect(readRecords(logFile).find((x) => x.event === 'exit')).toMatchObject({ code: null, signal: 'SIGUSR2' });
  });
});

describe('spawn failures', () => {
  it('exits 127 with one line naming the command and PATH when the command is not found', async () => {
    const r = tap(['--', 'mcp-tap-no-such-command-xyz', '--flag']);
    const { code } = await r.exited();
    expect(code).toBe(127);
    const lines = r.stderr().trimEnd().split('\n');
    const errors = lines.filter((l) => !l.startsWith('mcp-tap: logging to'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^mcp-tap: .*mcp-tap-no-such-command-xyz.*PATH/);
    expectNoStackTrace(r.stderr());
    expect(r.stdout().length).toBe(0);
    expect(events(readRecords(logFile))).toContain('spawn-error');
  });

  it('exits 126 when the command is not executable', async () => {
    const script = join(box.dir, 'server.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n');
    chmodSync(script, 0o644);
    const r = tap(['--', script]);
    const { code } = await r.exited();
    expect(code).toBe(126);
    const errors = tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(script);
    expectNoStackTrace(r.stderr());
  });

  it('exits 126 naming the interpreter when a script\'s #! interpreter does not exist', async () => {
    const script = join(box.dir, 'server.py');
    writeFileSync(script, '#!/usr/bin/no-such-python9\nprint(1)\n');
    chmodSync(script, 0o755);
    const r = tap(['--', script]);
    expect((await r.exited()).code).toBe(126);
    const errors = tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'));
    expect(errors).toEqual([`mcp-tap: cannot execute ${JSON.stringify(script)}: its interpreter "#!/usr/bin/no-such-python9" was not found`]);
  });

  it('exits 126 when the command is a directory', async () => {
    const r = tap(['--', box.dir]);
    expect((await r.exited()).code).toBe(126);
    expectNoStackTrace(r.stderr());
  });
});

describe('shutdown', () => {
  it('stdin EOF with a server that ignores SIGTERM: SIGTERM, then SIGKILL after the grace period, exit 137', async () => {
    const r = tap(['--grace', '300', '--', 'node', fixture('ignore-sigterm.mjs')]);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    const started = Date.now();
    r.child.stdin.end();
    const { code } = await r.exited();
    const took = Date.now() - started;
    expect(code).toBe(128 + constants.signals.SIGKILL);
    // two grace periods: stdin close → SIGTERM → SIGKILL
    expect(took).toBeGreaterThanOrEqual(550);
    await waitDead(pid);
    expect(r.stderr()).toContain('got SIGTERM, ignoring it');
    const kills = readRecords(logFile).filter((x) => x.event === 'kill');
    expect(kills.map((k) => k.signal)).toEqual(['SIGTERM', 'SIGKILL']);
    expect(events(readRecords(logFile))).toEqual(expect.arrayContaining(['stdin-closed', 'exit', 'end']));
  });

  it('stdin EOF with a well-behaved server: it exits on its own, no signal sent', async () => {
    const r = tap(['--grace', '5000', '--', 'node', fixture('cat.mjs')]);
    const pid = await readPid(pidFile);
    r.child.stdin.end('{"jsonrpc":"2.0","method":"x"}\n');
    const { code } = await r.exited();
    expect(code).toBe(0);
    await waitDead(pid);
    expect(events(readRecords(logFile))).not.toContain('kill');
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('forwards %s to the server and exits 128+N', async (signal) => {
    const r = tap(['--grace', '5000', '--', 'node', fixture('wait-forever.mjs')]);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    r.child.kill(signal);
    const { code } = await r.exited();
    expect(code).toBe(128 + constants.signals[signal]);
    await waitDead(pid);
    const recs = readRecords(logFile);
    expect(recs.find((x) => x.event === 'signal')).toMatchObject({ signal });
    expect(recs.find((x) => x.event === 'exit')).toMatchObject({ signal });
    expect(events(recs)).not.toContain('kill'); // the server obeyed; no escalation
  });

  it('a forwarded SIGTERM the server ignores is followed by SIGKILL after the grace period', async () => {
    const r = tap(['--grace', '300', '--', 'node', fixture('ignore-sigterm.mjs')]);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    r.child.kill('SIGTERM');
    const { code } = await r.exited();
    expect(code).toBe(137);
    await waitDead(pid);
    expect(readRecords(logFile).filter((x) => x.event === 'kill').map((k) => k.signal)).toEqual(['SIGKILL']);
  });

  it("the SDK host's close (stdin closed, then SIGTERM): SIGKILL follows within half a grace period, so mcp-tap finishes first", async () => {
    const r = tap(['--grace', '800', '--', 'node', fixture('ignore-sigterm.mjs')]);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    r.child.stdin.end();
    await waitFor(() => readFileSync(logFile, 'utf8').includes('"event":"stdin-closed"'), 5000, 'the stdin-closed record');
    r.child.kill('SIGTERM');
    const { code } = await r.exited();
    expect(code).toBe(137);
    await waitDead(pid);
    const recs = readRecords(logFile);
    const signal = recs.find((x) => x.event === 'signal')!;
    const kill = recs.find((x) => x.event === 'kill' && x.signal === 'SIGKILL')!;
    const waited = (kill.time as number) - (signal.time as number);
    expect(waited).toBeGreaterThanOrEqual(350);
    expect(waited).toBeLessThan(800);
    expect(recs.at(-1)).toMatchObject({ event: 'end' });
  });

  it('a signal that arrives while the server is still starting is forwarded too (no orphan)', async () => {
    const token = `early-signal-${process.pid}-${Date.now()}`;
    const r = tap(['--grace', '5000', '--', 'node', fixture('wait-forever.mjs'), token]);
    // "logging to" is printed right after the spawn, before the relay is wired: the earliest moment
    await r.waitStderr('mcp-tap: logging to');
    r.child.kill('SIGTERM');
    try {
      const { code } = await r.exited();
      expect(code).toBe(143);
      await waitFor(() => processesWith(token).length === 0, 5000, `no process running with ${token}`);
    } finally {
      for (const pid of processesWith(token)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a second signal kills the server at once', async () => {
    const r = tap(['--grace', '60000', '--', 'node', fixture('ignore-sigterm.mjs')]);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    r.child.kill('SIGTERM');
    await r.waitStderr('got SIGTERM');
    r.child.kill('SIGINT');
    const { code } = await r.exited(5000);
    expect(code).toBe(137);
    await waitDead(pid);
  });

  it('EPIPE: the host stops reading stdout while the server writes → the server is shut down, no stack trace', async () => {
    const r = runTap(['--log', logFile, '--grace', '1000', '--', 'node', fixture('chatty.mjs')], { env: { TAP_PID_FILE: pidFile }, collect: false });
    box.track(r);
    await r.waitStderr('ready\n');
    const pid = await readPid(pidFile);
    // wait until bytes flow, then close our read end of mcp-tap's stdout
    await new Promise<void>((resolve) => r.child.stdout.once('data', () => resolve()));
    r.child.stdout.destroy();
    const { code } = await r.exited();
    await waitDead(pid);
    expectNoStackTrace(r.stderr());
    expect(tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'))).toEqual([]);
    const evs = events(readRecords(logFile));
    expect(evs).toEqual(expect.arrayContaining(['host-gone', 'exit', 'end']));
    // chatty exits 0 when its stdin closes, which is how mcp-tap asks it to stop first; on a machine too
    // loaded for it to get there within the grace period, the SIGTERM that follows ends it (143)
    if (evs.includes('kill')) expect(code, r.stderr()).toBe(143);
    else expect(code, r.stderr()).toBe(0);
  });
});

describe('usage errors', () => {
  it('bare `mcp-tap` prints the help on stdout and exits 0', async () => {
    const r = runTap([]);
    box.track(r);
    expect((await r.exited()).code).toBe(0);
    expect(r.stdout().toString()).toMatch(/Usage:\n  mcp-tap \[options\] -- <command>/);
  });

  it.each([
    [['--'], /missing the server command/],
    [['--bogus', '--', 'node', 'x.js'], /unknown option --bogus/],
    [['--grace', 'soon', '--', 'node', 'x.js'], /--grace takes a whole number/],
    [['--log'], /--log needs a value/],
    [['--', ''], /empty/],
  ])('%j exits 2 with one line', async (args, message) => {
    const r = runTap(args, { env: { TAP_PID_FILE: pidFile } });
    box.track(r);
    const { code } = await r.exited();
    expect(code).toBe(2);
    const lines = r.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp-tap: /);
    expect(lines[0]).toMatch(message);
    expect(r.stdout().length).toBe(0);
    expect(existsSync(pidFile)).toBe(false); // no server was started
  });
});
