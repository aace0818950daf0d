/**
 * How the server's whole process tree is ended, per OS. POSIX: the server leads its own process group
 * (spawn-server.ts), so one signal to the group reaches what it started. Windows has neither groups nor
 * signals: `taskkill /T /F` ends the process and its descendants, and when taskkill fails the tree is
 * listed and ended pid by pid (windows-tree.ts). The plan is pure; stopTree carries it out.
 */
import type { ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { execa } from 'execa';
import { findCommand } from './command-lookup.js';
import { LISTERS, stopWindowsTree, type CommandResult } from './windows-tree.js';

export type TreeStop =
  | { kind: 'group-signal'; pgid: number; signal: NodeJS.Signals }
  | { kind: 'taskkill'; file: 'taskkill'; args: string[]; pid: number }
  | { kind: 'none' };

/** What ends the tree rooted at `pid` with `signal` on `platform`. */
export function treeStopPlan(platform: NodeJS.Platform, pid: number | undefined, signal: NodeJS.Signals): TreeStop {
  if (pid === undefined || !(pid > 0)) return { kind: 'none' };
  if (platform === 'win32') return { kind: 'taskkill', file: 'taskkill', args: ['/PID', String(pid), '/T', '/F'], pid };
  return { kind: 'group-signal', pgid: pid, signal };
}

/** Each command of the Windows stop may take this long (wmic and PowerShell are slow to start). */
const COMMAND_TIMEOUT_MS = 10_000;

/** The longest a Windows stop can run: taskkill and each lister timing out, then the kills. */
export const TREE_STOP_BOUND_MS = (1 + LISTERS.length) * COMMAND_TIMEOUT_MS + 1_000;

/** Windows stops still under way, by root pid: process.exit would cut them short, leaving what the server started. */
const pending = new Map<number, Promise<string | null>>();

/**
 * Resolves once every Windows tree stop begun so far has finished, or after `boundMs`: the shutdown may
 * stop waiting for a server (a grace period after SIGKILL) while the fallback is still listing its tree.
 */
export async function treeStopsSettled(boundMs = TREE_STOP_BOUND_MS): Promise<void> {
  if (pending.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
  await Promise.race([Promise.allSettled([...pending.values()]), bound]);
  clearTimeout(timer);
}

/** Runs one command of the Windows stop through execa; never rejects. */
async function runCommand(file: string, args: string[]): Promise<CommandResult> {
  // looked up first: a name cross-spawn cannot resolve would go to cmd.exe and come back as its message
  const ctx = { platform: process.platform, env: process.env, cwd: process.cwd() };
  if (findCommand(file, ctx, (p) => statSync(p, { throwIfNoEntry: false })?.isFile() === true) === null) {
    return { exitCode: undefined, stdout: Buffer.alloc(0), failure: 'not found' };
  }
  const r = await execa(file, args, {
    stdin: 'ignore',
    encoding: 'buffer',
    reject: false,
    windowsHide: true,
    cleanup: false,
    timeout: COMMAND_TIMEOUT_MS,
  });
  const stderr = Buffer.from(r.stderr ?? []).toString('utf8').trim().split(/\r?\n/)[0] ?? '';
  const failure = r.timedOut ? `no answer within ${COMMAND_TIMEOUT_MS} ms` : r.failed && r.exitCode === undefined ? (r.cause instanceof Error ? r.cause.message : 'could not start') : stderr || undefined;
  return { exitCode: r.exitCode, stdout: Buffer.from(r.stdout ?? []), failure: r.exitCode === 0 ? undefined : failure };
}

/**
 * Carries out a plan; never rejects (the tree may already be gone). Resolves to a sentence when the
 * Windows stop had to fall back (for the user), else null. `child` is the server (its direct kill).
 */
export async function stopTree(plan: TreeStop, child?: Pick<ChildProcess, 'kill'>): Promise<string | null> {
  try {
    if (plan.kind === 'group-signal') process.kill(-plan.pgid, plan.signal);
    if (plan.kind !== 'taskkill') return null;
    // SIGKILL while SIGTERM's stop is still listing the tree: that stop ends it all, and says so once
    const running = pending.get(plan.pid);
    if (running !== undefined) {
      await running;
      return null;
    }
    const stop = stopWindowsTree(plan.pid, {
      run: runCommand,
      killChild: () => {
        try {
          child === undefined ? process.kill(plan.pid) : child.kill();
        } catch {
          // already gone
        }
      },
      killPid: (pid) => {
        try {
          return process.kill(pid);
        } catch {
          return false;
        }
      },
    });
    pending.set(plan.pid, stop);
    try {
      return await stop;
    } finally {
      pending.delete(plan.pid);
    }
  } catch {
    // group already empty
    return null;
  }
}
