/**
 * Finds a server command the way a host's spawn does (no shell): a path is taken relative to the entry's
 * cwd; a bare name is looked up in each PATH directory in order (with PATHEXT on Windows).
 */
import { constants, promises as fs } from 'node:fs';
import { posix, win32 } from 'node:path';

export type Resolution =
  | { status: 'found'; path: string }
  | { status: 'not-found' }
  | { status: 'not-executable'; path: string }
  | { status: 'directory'; path: string };

/** What resolution needs from the file system (injected in tests). */
export interface FsProbe {
  kind: (path: string) => Promise<'file' | 'dir' | 'missing'>;
  executable: (path: string) => Promise<boolean>;
}

/** The real file system. */
export const realFs: FsProbe = {
  kind: async (path) => {
    try {
      return (await fs.stat(path)).isDirectory() ? 'dir' : 'file';
    } catch {
      return 'missing';
    }
  },
  executable: async (path) => {
    try {
      await fs.access(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};

/** The value of PATH in an environment (Windows spells it Path; any case counts there). */
export function pathValue(env: Record<string, string | undefined>, platform: NodeJS.Platform): string {
  if (platform !== 'win32') return env.PATH ?? '';
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key ? env[key] ?? '' : '';
}

export interface ResolveContext {
  cwd: string;
  path: string;
  platform: NodeJS.Platform;
  pathext?: string;
}

/** Where `command` would be found, or why it would not run. */
export async function resolveCommand(command: string, ctx: ResolveContext, probe: FsProbe = realFs): Promise<Resolution> {
  const p = ctx.platform === 'win32' ? win32 : posix;
  const win = ctx.platform === 'win32';
  const exts = (ctx.pathext || '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean).map((e) => e.toLowerCase());
  const hasExt = /\.[^\\/.]+$/.test(command);
  const candidates = (base: string) => (win && !hasExt ? exts.map((e) => base + e) : [base]);
  const isPath = win ? /[\\/]/.test(command) : command.includes('/');
  const dirs = isPath ? [''] : ctx.path.split(win ? ';' : ':').filter((d) => d !== '');
  let notExecutable: string | undefined;
  let directory: string | undefined;
  for (const dir of dirs) {
    const base = isPath ? p.resolve(ctx.cwd, command) : p.resolve(ctx.cwd, dir, command);
    for (const file of candidates(base)) {
      const kind = await probe.kind(file);
      if (kind === 'missing') continue;
      if (kind === 'dir') {
        directory ??= file;
        continue;
      }
      if (win || (await probe.executable(file))) return { status: 'found', path: file };
      notExecutable ??= file;
    }
  }
  if (notExecutable) return { status: 'not-executable', path: notExecutable };
  if (directory) return { status: 'directory', path: directory };
  return { status: 'not-found' };
}
