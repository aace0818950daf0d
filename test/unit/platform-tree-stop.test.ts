/**
 * The Windows process-tree stop when taskkill fails (issue 31, bug 1): the process table is read from
 * wmic's UTF-16 output or PowerShell's, the tree below the server is walked, the server and then each
 * descendant are ended by pid, and the sentence says what was done. A missing command is found missing
 * before any spawn on every OS (bug 2). Shutdown gives up a grace period after SIGKILL when the server
 * is still there, instead of waiting forever.
 */
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { decodeCommandOutput, descendantsOf, parseProcessTable, stopWindowsTree, type CommandResult } from '../../src/platform/windows-tree.js';
import { stopTree, treeStopsSettled } from '../../src/platform/process-tree.js';
import { lookupError } from '../../src/proxy/spawn-server.js';
import { Shutdown } from '../../src/proxy/shutdown.js';

/** wmic's table as Wine 8 and Windows write it when redirected: UTF-16LE, columns in alphabetical order. */
const WMIC = Buffer.from(
  '\ufeffParentProcessId  ProcessId  \r\r\n0                4          \r\r\n40               56         \r\r\n56               300        \r\r\n300              310        \r\r\n310              320        \r\r\n300              330        \r\r\n56               400        \r\r\n',
  'utf16le',
);

describe('the process table', () => {
  it('wmic writes UTF-16LE with a byte order mark; PowerShell and others UTF-8', () => {
    expect(decodeCommandOutput(WMIC)).toMatch(/^ParentProcessId {2}ProcessId/);
    expect(decodeCommandOutput(Buffer.from('P\u0000a\u0000', 'latin1'))).toBe('Pa');
    expect(decodeCommandOutput(Buffer.from('ParentProcessId ProcessId\r\n4 8\r\n'))).toBe('ParentProcessId ProcessId\r\n4 8\r\n');
  });

  it('rows come from the header\'s columns in either order; lines that are not two numbers are skipped', () => {
    expect(parseProcessTable(decodeCommandOutput(WMIC))).toEqual([
      { pid: 4, ppid: 0 }, { pid: 56, ppid: 40 }, { pid: 300, ppid: 56 }, { pid: 310, ppid: 300 }, { pid: 320, ppid: 310 }, { pid: 330, ppid: 300 }, { pid: 400, ppid: 56 },
    ]);
    expect(parseProcessTable('ProcessId ParentProcessId\n7 3\nnoise here\n9 7\n')).toEqual([{ pid: 7, ppid: 3 }, { pid: 9, ppid: 7 }]);
    // wmic under Wine, stdout a pipe: the two names with no space between them
    expect(parseProcessTable('ParentProcessIDProcessID\r\n40   56   \r\n56   84   \r\n')).toEqual([{ pid: 56, ppid: 40 }, { pid: 84, ppid: 56 }]);
    expect(parseProcessTable('ERROR: Description = Invalid query\n')).toBeNull();
    expect(parseProcessTable('ParentProcessId\n1\n')).toBeNull();
  });

  it('the tree below a pid, parents first, each pid once even when pid reuse makes a cycle', () => {
    const rows = parseProcessTable(decodeCommandOutput(WMIC))!;
    expect(descendantsOf(300, rows)).toEqual([310, 330, 320]);
    expect(descendantsOf(320, rows)).toEqual([]);
    expect(descendantsOf(1, [{ pid: 2, ppid: 1 }, { pid: 1, ppid: 2 }, { pid: 3, ppid: 3 }])).toEqual([2]);
  });
});

/** Edges that answer taskkill and the listers as given, recording every kill in order. */
function edges(answers: Record<string, CommandResult>) {
  const done: string[] = [];
  const ran: string[] = [];
  return {
    done,
    ran,
    e: {
      run: async (file: string) => {
        ran.push(file);
        return answers[file] ?? { exitCode: undefined, stdout: Buffer.alloc(0), failure: `${file}: not found` };
      },
      killChild: () => done.push('child'),
      killPid: (pid: number) => (done.push(String(pid)), pid !== 330),
    },
  };
}
const ok = (stdout: Buffer | string = ''): CommandResult => ({ exitCode: 0, stdout: Buffer.from(stdout) });

describe('stopWindowsTree', () => {
  it('taskkill /T succeeding is the whole stop: nothing listed, nothing reported', async () => {
    const { e, ran, done } = edges({ taskkill: ok() });
    expect(await stopWindowsTree(300, e)).toBeNull();
    expect([ran, done]).toEqual([['taskkill'], []]);
  });

  it('taskkill failing (Wine has no /T): the tree from wmic, the server first, then each descendant, reported', async () => {
    const { e, ran, done } = edges({ taskkill: { exitCode: 1, stdout: Buffer.alloc(0), failure: 'Usage: taskkill [/?] [/f] [/im ProcessName | /pid ProcessID]' }, wmic: ok(WMIC) });
    const said = await stopWindowsTree(300, e);
    expect(ran).toEqual(['taskkill', 'wmic']);
    expect(done).toEqual(['child', '310', '330', '320']);
    expect(said).toBe('taskkill /T failed (Usage: taskkill [/?] [/f] [/im ProcessName | /pid ProcessID]); ended the server (pid 300) and 2 processes it started (pids 310, 320), found with wmic, one by one; 1 pid could not be ended (330)');
  });

  it('without wmic (Windows 11 24H2), PowerShell lists the tree', async () => {
    const { e, ran, done } = edges({ taskkill: { exitCode: 128, stdout: Buffer.alloc(0) }, 'powershell.exe': ok('ParentProcessId ProcessId\r\n300 310\r\n') });
    expect(await stopWindowsTree(300, e)).toBe('taskkill /T failed (exit 128); ended the server (pid 300) and 1 process it started (pids 310), found with PowerShell, one by one');
    expect(ran).toEqual(['taskkill', 'wmic', 'powershell.exe']);
    expect(done).toEqual(['child', '310']);
  });

  it('with no way to list the tree the server is still ended, and the sentence says what may be left', async () => {
    const { e, done } = edges({ taskkill: { exitCode: 1, stdout: Buffer.alloc(0) }, wmic: ok('no table') });
    expect(await stopWindowsTree(300, e)).toBe(
      'taskkill /T failed (exit 1) and the processes the server started could not be listed (wmic: no process table in its output; PowerShell: powershell.exe: not found); only the server (pid 300) was ended, what it started may still run',
    );
    expect(done).toEqual(['child']);
  });
});

describe('stopTree on Windows: seen through before mcp-tap exits, once per server', () => {
  // here taskkill, wmic and PowerShell are not found, so each stop falls back to ending the server alone
  const plan = { kind: 'taskkill' as const, file: 'taskkill' as const, args: [], pid: 4243 };

  it('treeStopsSettled waits for a stop that is still listing the tree (mcp-tap gave up on the server meanwhile)', async () => {
    const kill = vi.fn(() => true);
    const said: (string | null)[] = [];
    void stopTree(plan, { kill }).then((s) => said.push(s));
    await treeStopsSettled(10_000);
    expect(kill).toHaveBeenCalledTimes(1);
    expect(said).toEqual([expect.stringMatching(/^taskkill \/T failed \(not found\) and the processes the server started could not be listed/)]);
  });

  it('a second stop of the same server while the first runs (SIGKILL after SIGTERM) joins it: one kill, one sentence', async () => {
    const kill = vi.fn(() => true);
    const [first, second] = await Promise.all([stopTree(plan, { kill }), stopTree(plan, { kill })]);
    expect(kill).toHaveBeenCalledTimes(1);
    expect(first).toMatch(/^taskkill \/T failed/);
    expect(second).toBeNull();
  });

  it('with nothing under way it resolves at once', async () => {
    await expect(treeStopsSettled(10_000)).resolves.toBeUndefined();
  });
});

describe('a missing command is found missing before the spawn, on every OS', () => {
  const winEnv = { Path: 'C:\\node;C:\\windows\\system32', PATHEXT: '.COM;.EXE;.BAT;.CMD' };
  const winFiles = new Set(['C:\\node\\npx.cmd', 'C:\\node\\node.exe', 'C:\\work\\srv.cmd']);
  const winExists = (f: string) => winFiles.has(f.toLowerCase().replace(/^c:/, 'C:'));

  it('win32: a bare name, a .cmd in the current directory and a path are found; a missing one is COMMAND_NOT_FOUND (127)', () => {
    const ctx = { platform: 'win32' as const, env: winEnv, cwd: 'C:\\work' };
    for (const c of ['npx', 'node', 'srv', 'C:\\node\\node.exe', '.\\srv.cmd']) expect(lookupError(c, ctx, winExists)).toBeNull();
    const err = lookupError('no-such-server', ctx, winExists);
    expect(err?.code).toBe('COMMAND_NOT_FOUND');
    expect(err?.message).toBe('command not found: "no-such-server" (not on PATH; PATH=C:\\node;C:\\windows\\system32)');
    expect(lookupError('C:\\gone\\srv.exe', ctx, winExists)?.message).toContain(', or the path does not exist');
  });

  it('linux and darwin: the same contract from the same lookup', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const ctx = { platform, env: { PATH: '/usr/bin:/bin' }, cwd: '/w' };
      expect(lookupError('node', ctx, (f) => f === '/usr/bin/node')).toBeNull();
      expect(lookupError('nope', ctx, () => false)?.code).toBe('COMMAND_NOT_FOUND');
    }
  });
});

/** A server that never exits, whatever it is sent. */
function deafChild(): ChildProcess {
  const child = new EventEmitter() as unknown as ChildProcess & { pid: number };
  Object.assign(child, { pid: 4242, kill: vi.fn(() => true), stdin: { end: () => {} }, stdout: { destroy: vi.fn() }, stderr: { destroy: vi.fn() } });
  return child;
}

describe('Shutdown: the stop is bounded', () => {
  it('a server still there a grace period after SIGKILL: one warning, then done (forced), no waiting forever', async () => {
    vi.useFakeTimers();
    try {
      const child = deafChild();
      const warn = vi.fn();
      const onDone = vi.fn();
      const kills: string[] = [];
      const s = new Shutdown(child, { graceMs: 100, warn, onKill: (sig) => kills.push(sig), onExit: () => {}, onDone });
      s.hostClosedStdin();
      await vi.advanceTimersByTimeAsync(250);
      expect(kills).toEqual(['SIGTERM', 'SIGKILL']);
      expect(onDone).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(100);
      expect(onDone).toHaveBeenCalledWith({ code: null, signal: null, forced: true });
      expect(warn).toHaveBeenCalledWith('the server (pid 4242) had not exited 100 ms after it was killed; mcp-tap stops waiting for it (it may still be running)');
      expect(child.stdout!.destroy).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a server that exits after SIGKILL ends normally: no give-up warning', async () => {
    vi.useFakeTimers();
    try {
      const child = deafChild();
      const warn = vi.fn();
      const onDone = vi.fn();
      const s = new Shutdown(child, { graceMs: 100, warn, onKill: () => {}, onExit: () => {}, onDone });
      s.forwardSignal('SIGTERM');
      s.forwardSignal('SIGTERM');
      child.emit('exit', null, 'SIGKILL');
      child.emit('close');
      await vi.advanceTimersByTimeAsync(500);
      expect(onDone).toHaveBeenCalledWith({ code: null, signal: 'SIGKILL', forced: false });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
