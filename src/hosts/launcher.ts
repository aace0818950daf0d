/**
 * How a host config should start mcp-tap. Default: the absolute path of the running mcp-tap script,
 * which starts through its `#!/usr/bin/env node` line. Where that cannot work (Windows, a script without
 * the execute bit) or when asked (--node): the absolute path of the running node with the script as
 * first argument. With --npx, or when mcp-tap itself runs from npx's cache (a path that does not last):
 * `npx -y mcp-tap`.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Launcher } from './types.js';

export interface LauncherInputs {
  /** process.argv[1]: the mcp-tap script being run. */
  script: string | undefined;
  /** process.execPath: the node running it. */
  execPath: string;
  platform: NodeJS.Platform;
  /** Whether a file may be executed directly (execute bit set). */
  isExecutable: (file: string) => boolean;
  npx?: boolean;
  node?: boolean;
}

/** True for a path inside npx's package cache (…/_npx/<hash>/…), which npm may clear at any time. */
export function isNpxCachePath(path: string): boolean {
  return /[\\/]_npx[\\/]/.test(path);
}

/** Picks the launcher form and says why, for the command's output. */
export function chooseLauncher(i: LauncherInputs): { launcher: Launcher; note?: string } {
  const npx: Launcher = { command: 'npx', prefixArgs: ['-y', 'mcp-tap'], form: 'npx' };
  if (i.npx) return { launcher: npx };
  if (!i.script) return { launcher: npx, note: 'cannot tell where mcp-tap is installed; using npx -y mcp-tap' };
  const script = isAbsolute(i.script) ? i.script : resolve(i.script);
  if (isNpxCachePath(script)) {
    return { launcher: npx, note: 'mcp-tap runs from the npx cache, which does not last; using npx -y mcp-tap (install it globally to use a fixed path)' };
  }
  if (i.node || i.platform === 'win32' || !i.isExecutable(script)) {
    return { launcher: { command: i.execPath, prefixArgs: [script], form: 'node' } };
  }
  return { launcher: { command: script, prefixArgs: [], form: 'script' } };
}
