/**
 * How the server's whole process tree is ended, per OS. POSIX: the server leads its own process group
 * (spawn-server.ts), so one signal to the group reaches what it started. Windows has neither groups nor
 * signals: `taskkill /T /F` ends the process and its descendants. The plan is pure; stopTree carries it out.
 */
import { execa } from 'execa';

export type TreeStop =
  | { kind: 'group-signal'; pgid: number; signal: NodeJS.Signals }
  | { kind: 'taskkill'; file: 'taskkill'; args: string[] }
  | { kind: 'none' };

/** What ends the tree rooted at `pid` with `signal` on `platform`. */
export function treeStopPlan(platform: NodeJS.Platform, pid: number | undefined, signal: NodeJS.Signals): TreeStop {
  if (pid === undefined || !(pid > 0)) return { kind: 'none' };
  if (platform === 'win32') return { kind: 'taskkill', file: 'taskkill', args: ['/PID', String(pid), '/T', '/F'] };
  return { kind: 'group-signal', pgid: pid, signal };
}

/** Carries out a plan; never throws (the tree may already be gone). */
export function stopTree(plan: TreeStop): void {
  try {
    if (plan.kind === 'group-signal') process.kill(-plan.pgid, plan.signal);
    else if (plan.kind === 'taskkill') void execa(plan.file, plan.args, { stdio: 'ignore', reject: false, windowsHide: true, cleanup: false });
  } catch {
    // group already empty
  }
}
