/**
 * Starts the server: no shell, argv exactly as given, env and cwd inherited, three pipes.
 * node:child_process is used directly rather than execa here: execa costs ~100 ms to import, which
 * alone would break the startup budget of the hot path (see README, Design). The options are the ones
 * execa would apply for `buffer: false, shell: false`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { TapError } from '../errors.js';

/** The interpreter a script's `#!` line names, when the script exists and has one (error path only). */
function shebangOf(command: string): string | null {
  try {
    const fd = openSync(command, 'r');
    try {
      const head = Buffer.alloc(256);
      const n = readSync(fd, head, 0, head.length, 0);
      const line = head.subarray(0, n).toString('utf8').split('\n')[0] ?? '';
      return line.startsWith('#!') ? line.slice(2).trim() : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Spawn failures with the exit status a shell would give: 127 not found, 126 not executable. */
export function spawnError(command: string, err: NodeJS.ErrnoException): TapError {
  // the script exists but the interpreter on its #! line does not (the kernel says ENOENT for both)
  const interpreter = err.code === 'ENOENT' && command.includes('/') ? shebangOf(command) : null;
  if (interpreter !== null) {
    return new TapError('NOT_EXECUTABLE', `cannot execute ${JSON.stringify(command)}: its interpreter ${JSON.stringify(`#!${interpreter}`)} was not found`);
  }
  switch (err.code) {
    case 'ENOENT':
      return new TapError(
        'COMMAND_NOT_FOUND',
        `command not found: ${JSON.stringify(command)} (not on PATH${command.includes('/') ? ', or the path does not exist' : ''}; PATH=${process.env.PATH ?? ''})`,
      );
    case 'EACCES':
    case 'EPERM':
    case 'ENOEXEC':
    case 'EISDIR':
      return new TapError('NOT_EXECUTABLE', `cannot execute ${JSON.stringify(command)}: ${err.code === 'ENOEXEC' ? 'not an executable format' : 'permission denied (is it a directory, or missing the execute bit?)'}`);
    default:
      return new TapError('SPAWN_FAILED', `cannot start ${JSON.stringify(command)}: ${err.message}`);
  }
}

/** Resolves once the process is running; rejects with a typed error when it cannot start. */
export function spawnServer(command: string, args: readonly string[]): Promise<ChildProcessWithoutNullStreams> {
  return new Promise((resolve, reject) => {
    let child: ChildProcessWithoutNullStreams;
    try {
      // Own process group (POSIX): the watchdog and the grandchildren cleanup address the whole group.
      child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true, detached: process.platform !== 'win32' });
    } catch (err) {
      reject(spawnError(command, err as NodeJS.ErrnoException));
      return;
    }
    const onError = (err: NodeJS.ErrnoException) => reject(spawnError(command, err));
    child.once('error', onError);
    child.once('spawn', () => {
      child.off('error', onError);
      resolve(child);
    });
  });
}
