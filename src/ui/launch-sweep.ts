/**
 * Launch files left behind: `ui --open` removes its launch file once the page loads or when it stops,
 * but a `ui` killed outright (SIGKILL, a crash, a power cut) cannot, and the file holds a token. Every
 * `ui` start sweeps the directory launch files go to for those of mcp-tap's own naming (launch-name.ts)
 * whose writer no longer runs and that this user owns: in the download directory such a regular file, in
 * the temp dir such a directory holding nothing but the page. Nothing else is touched — other names,
 * symlinks, other users' entries, a running writer's, a directory with anything more in it. The file
 * system and the process table are edges, injected.
 */
import { lstatSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LAUNCH_PAGE, launchOwner, type LaunchKind } from './launch-name.js';

/** An entry as lstat sees it (a symlink is `other`). */
export interface EntryInfo {
  type: 'file' | 'dir' | 'other';
  uid: number;
}

/** What the sweep does to the machine. */
export interface SweepEdges {
  /** The names in a directory; [] when it cannot be read. */
  list(dir: string): string[];
  /** An entry, its symlink not followed; null when it is gone. */
  entry(path: string): EntryInfo | null;
  /** Whether a process with this pid runs (true when that cannot be told). */
  alive(pid: number): boolean;
  removeFile(path: string): void;
  /** Removes a directory that is empty. */
  removeDir(path: string): void;
}

/** The sweeping process: its pid (never swept), and its uid (undefined where there are none: Windows). */
export interface Sweeper {
  pid: number;
  uid: number | undefined;
}

/** Whether an entry is this user's, of this type. */
function mine(info: EntryInfo | null, type: EntryInfo['type'], self: Sweeper): boolean {
  return info !== null && info.type === type && (self.uid === undefined || info.uid === self.uid);
}

/** Removes one stale launch entry; false when it is not one or cannot go. */
function sweepOne(path: string, kind: LaunchKind, edges: SweepEdges, self: Sweeper): boolean {
  if (kind === 'downloads') {
    if (!mine(edges.entry(path), 'file', self)) return false;
    edges.removeFile(path);
    return true;
  }
  if (!mine(edges.entry(path), 'dir', self)) return false;
  const inside = edges.list(path);
  if (inside.some((n) => n !== LAUNCH_PAGE)) return false;
  const page = join(path, LAUNCH_PAGE);
  if (inside.length > 0) {
    if (!mine(edges.entry(page), 'file', self)) return false;
    edges.removeFile(page);
  }
  edges.removeDir(path);
  return true;
}

/** Removes the launch entries of `where` whose writer is gone; the paths removed. Never throws. */
export function sweepLaunchFiles(where: { kind: LaunchKind; dir: string }, edges: SweepEdges, self: Sweeper): string[] {
  const removed: string[] = [];
  for (const name of edges.list(where.dir)) {
    const pid = launchOwner(name, where.kind);
    if (pid === null || pid === self.pid || edges.alive(pid)) continue;
    const path = join(where.dir, name);
    try {
      if (sweepOne(path, where.kind, edges, self)) removed.push(path);
    } catch {
      // gone meanwhile, or not ours to remove: left as it is
    }
  }
  return removed;
}

/** Whether a process is a zombie on Linux: killed, its exit not yet collected by its parent. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/** This machine's file system and processes. */
export function realSweepEdges(): SweepEdges {
  return {
    list: (dir) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
    entry: (path) => {
      try {
        const st = lstatSync(path);
        return { type: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other', uid: st.uid };
      } catch {
        return null;
      }
    },
    alive: (pid) => {
      try {
        process.kill(pid, 0);
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== 'ESRCH';
      }
      return !zombie(pid);
    },
    removeFile: (path) => unlinkSync(path),
    removeDir: (path) => rmdirSync(path),
  };
}

/** The sweeping process as this one. */
export function thisProcess(): Sweeper {
  return { pid: process.pid, uid: process.getuid?.() };
}
