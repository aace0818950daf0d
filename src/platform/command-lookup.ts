/**
 * How a server command is looked up on each OS, as pure functions of (platform, env) plus an injected
 * `exists` probe. The proxy uses them only to tell a mistyped subcommand from a server command and to
 * word its errors; the spawn itself is execa's (cross-spawn), which follows the same rules.
 */
import { posix, win32 } from 'node:path';

/** Windows' default PATHEXT, used when the variable is unset. */
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** Whether the command names a path (looked up as given) rather than a bare name (searched on PATH). */
export function hasDirectoryPart(command: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? /[\\/]/.test(command) || /^[A-Za-z]:/.test(command) : command.includes('/');
}

/** The PATH value in an environment; Windows spells it Path, and any case counts there. */
export function searchPathOf(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform !== 'win32') return env.PATH ?? '';
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return key === undefined ? '' : env[key] ?? '';
}

/** Extensions tried after a bare name: PATHEXT on Windows when the name has none; nothing elsewhere. */
export function pathExtensions(command: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform !== 'win32') return [''];
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATHEXT');
  const exts = ((key === undefined ? undefined : env[key]) || DEFAULT_PATHEXT).split(';').filter((e) => e !== '');
  // `npx.cmd` is taken as named; `npx` tries npx.COM, npx.EXE, … npx.CMD (cmd.exe's order)
  return /\.[^\\/.]+$/.test(command) ? ['', ...exts] : exts;
}

/** Every file that would satisfy the lookup, in the order it is tried. */
export function commandCandidates(command: string, ctx: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; cwd: string }): string[] {
  const win = ctx.platform === 'win32';
  const p = win ? win32 : posix;
  const exts = pathExtensions(command, ctx.platform, ctx.env);
  if (hasDirectoryPart(command, ctx.platform)) return exts.map((e) => p.resolve(ctx.cwd, command + e));
  // with no PATH at all, execvp searches the C library's default path
  const dirs = (win ? searchPathOf(ctx.platform, ctx.env) : ctx.env.PATH ?? '/usr/bin:/bin').split(win ? ';' : ':');
  // Windows searches the current directory first; POSIX treats an empty PATH entry as the current one
  const ordered = win ? [ctx.cwd, ...dirs.filter((d) => d !== '')] : dirs.map((d) => d || ctx.cwd);
  return ordered.flatMap((dir) => exts.map((e) => p.resolve(ctx.cwd, dir, command + e)));
}

/** The first candidate that exists, or null. */
export function findCommand(command: string, ctx: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; cwd: string }, exists: (path: string) => boolean): string | null {
  for (const file of commandCandidates(command, ctx)) if (exists(file)) return file;
  return null;
}
