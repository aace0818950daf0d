/**
 * The directories a host reads project configs from: the project and its parents, up to the git work
 * tree's root or up to the filesystem root. Pure (paths only); findGitRoot takes the filesystem probe.
 */
import { posix, win32 } from 'node:path';

/** The project, then each parent up to and including `stop` (or the filesystem root when stop is null or not above). */
export function dirsUpTo(project: string, stop: string | null, platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? win32 : posix;
  const out: string[] = [];
  let dir = p.resolve(project);
  const end = stop === null ? null : p.resolve(stop);
  for (;;) {
    out.push(dir);
    if (end !== null && dir === end) return out;
    const up = p.dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

/** The nearest directory from `project` up that holds `.git` (a directory, or a file in worktrees and submodules). */
export function findGitRoot(project: string, platform: NodeJS.Platform, exists: (path: string) => boolean): string | null {
  const p = platform === 'win32' ? win32 : posix;
  for (const dir of dirsUpTo(project, null, platform)) if (exists(p.join(dir, '.git'))) return dir;
  return null;
}
