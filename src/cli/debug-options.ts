/**
 * Where `--debug` writes: `--debug-log <file>`, else `<log dir>/mcp-tap-debug.log`. Never our stdout:
 * in proxy mode that belongs to the server, so a path that is (or names) fd 1 is refused.
 */
import { fstatSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { defaultLogDir } from '../log/log-path.js';

/** True when MCP_TAP_DEBUG asks for the debug log (any value but '', '0', 'false'). */
export function debugFromEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.MCP_TAP_DEBUG;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** The debug log's path for these flags and environment. */
export function debugLogPath(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag !== undefined ? resolve(flag) : join(defaultLogDir(env), 'mcp-tap-debug.log');
}

/** Throws UsageError when `path` is our stdout (by name or by identity: same device and inode). */
export function refuseStdout(path: string): void {
  if (path === '-' || /^\/(dev\/stdout|dev\/fd\/1|proc\/self\/fd\/1)$/.test(path)) {
    throw new UsageError(`--debug-log cannot be stdout (${path}): stdout carries the server's messages`);
  }
  try {
    const out = fstatSync(1);
    const file = statSync(path);
    // the same file, pipe or terminal as fd 1 (only /dev/null may be shared)
    if (out.dev === file.dev && out.ino === file.ino && path !== '/dev/null') {
      throw new UsageError(`--debug-log ${path} is the file stdout goes to: stdout carries the server's messages`);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // no such file yet, or no stdout: nothing to compare
  }
}
