/**
 * Where an `-o` file's bytes go. A regular file (or a new one) is replaced atomically — through a
 * symlink, whose target is replaced and the link kept; a device, FIFO or socket (`-o /dev/stdout`,
 * `-o /dev/null`, a named pipe) is written in place: renaming a file over it would put a regular file
 * where it was (as root, over /dev/null itself).
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Replace `file` atomically (`directory`: it is one, which cannot be), or write into `file` as it is (`fifo`: it needs a reader). */
export type OutputTarget = { atomic: true; file: string; directory: boolean } | { atomic: false; file: string; fifo: boolean };

/** Symlinks a path may go through before the target is taken as found (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/** What `-o path` writes to. */
export async function outputTarget(path: string): Promise<OutputTarget> {
  const named = resolve(path);
  const st = await stat(named).catch(() => null);
  if (st !== null && !st.isFile() && !st.isDirectory()) return { atomic: false, file: named, fifo: st.isFIFO() };
  if (st !== null) return { atomic: true, file: await realpath(named).catch(() => named), directory: st.isDirectory() };
  return { atomic: true, file: await danglingTarget(named), directory: false };
}

/** A path that does not exist: itself, or where its (dangling) symlinks point. */
async function danglingTarget(path: string): Promise<string> {
  let at = path;
  for (let i = 0; i < MAX_LINKS; i++) {
    const l = await lstat(at).catch(() => null);
    if (l === null || !l.isSymbolicLink()) return at;
    at = resolve(dirname(at), await readlink(at));
  }
  return at;
}
