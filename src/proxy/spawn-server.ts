/**
 * Starts the server through execa: no shell, argv exactly as given, env and cwd inherited, three raw
 * pipes (`buffer: false`: execa reads nothing, the pumps own the streams). execa (cross-spawn) resolves
 * a bare name the way a shell would on each OS: PATHEXT and `.cmd`/`.bat` shims such as `npx.cmd` on
 * Windows, with their arguments quoted for cmd.exe. A command that the platform's lookup cannot find is
 * reported before any spawn (cross-spawn would hand it to cmd.exe on Windows: exit 9009, not 127). The
 * bundle keeps its import cheap (docs/design.md).
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { execa } from 'execa';
import { TapError } from '../errors.js';
import { findCommand, hasDirectoryPart, searchPathOf } from '../platform/command-lookup.js';

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
export function spawnError(command: string, err: NodeJS.ErrnoException, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): TapError {
  const isPath = hasDirectoryPart(command, platform);
  // the script exists but the interpreter on its #! line does not (the kernel says ENOENT for both)
  const interpreter = err.code === 'ENOENT' && isPath && platform !== 'win32' ? shebangOf(command) : null;
  if (interpreter !== null) {
    return new TapError('NOT_EXECUTABLE', `cannot execute ${JSON.stringify(command)}: its interpreter ${JSON.stringify(`#!${interpreter}`)} was not found`);
  }
  switch (err.code) {
    case 'ENOENT':
      return new TapError(
        'COMMAND_NOT_FOUND',
        `command not found: ${JSON.stringify(command)} (not on PATH${isPath ? ', or the path does not exist' : ''}; PATH=${searchPathOf(platform, env)})`,
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

/** Whether a lookup candidate may be the command: anything there (a directory or a file without the execute
 * bit is the spawn's to report: 126), or a path we cannot look into. */
function mayBeCommand(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

/** The not-found error when the platform's lookup finds no file for the command, else null (spawn it). */
export function lookupError(
  command: string,
  ctx: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; cwd: string },
  exists: (path: string) => boolean = mayBeCommand,
): TapError | null {
  if (command === '' || findCommand(command, ctx, exists) !== null) return null;
  return spawnError(command, Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' }), ctx.platform, ctx.env);
}

/** The spawn error execa reports (its own error keeps the original as `cause`). */
function originalError(err: unknown): NodeJS.ErrnoException {
  const cause = (err as { cause?: unknown } | null)?.cause;
  return (cause instanceof Error ? cause : err instanceof Error ? err : new Error(String(err))) as NodeJS.ErrnoException;
}

/** execa's options for the relay: today's child_process semantics, nothing added. */
const OPTIONS = {
  stdio: ['pipe', 'pipe', 'pipe'],
  buffer: false,
  shell: false,
  windowsHide: true,
  // Own process group (POSIX): the watchdog and the grandchildren cleanup address the whole group.
  detached: process.platform !== 'win32',
  // mcp-tap owns the escalation (shutdown.ts) and the cleanup when it dies (watchdog.ts)
  cleanup: false,
  forceKillAfterDelay: false,
  reject: false,
  stripFinalNewline: false,
} as const;

/**
 * How the server ended, as far as it has: recorded from its start, because the relay's code (and its
 * Shutdown) is loaded after the spawn, and a server that exits at once has its 'exit' and 'close' events
 * behind it by then.
 */
export interface ServerEnd {
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  closed: boolean;
}

/** A started server. */
export interface StartedServer {
  child: ChildProcessWithoutNullStreams;
  end: ServerEnd;
}

/** The listener of the hold on the server's output: there only to be there (see spawnServer). */
const hold = (): void => {};

/** Ends spawnServer's hold on the server's stdout and stderr; called right before the pumps read them. */
export function releaseOutput(child: ChildProcessWithoutNullStreams): void {
  child.stdout.off('readable', hold);
  child.stderr.off('readable', hold);
}

/**
 * Resolves once the process is running; rejects with a typed error when it cannot start. The process
 * comes wrapped: execa's subprocess is also a promise, which `await` would otherwise unwrap.
 */
export function spawnServer(command: string, args: readonly string[]): Promise<StartedServer> {
  return new Promise((resolve, reject) => {
    const missing = lookupError(command, { platform: process.platform, env: process.env, cwd: process.cwd() });
    if (missing !== null) {
      reject(missing);
      return;
    }
    let child;
    try {
      child = execa(command, args, OPTIONS);
    } catch (err) {
      reject(spawnError(command, originalError(err)));
      return;
    }
    let started = false;
    // Pause now: with `buffer: false` execa resumes a stream nobody reads on the next turn, and the pumps
    // are attached only once this promise has resolved.
    child.stdout.pause();
    child.stderr.pause();
    // And hold: when the server exits, Node resumes each of its stdout/stderr that nothing listens to, which
    // then drops what it reads; a server that writes and exits before the pumps exist would lose its output.
    // A 'readable' listener counts as listening, and it consumes nothing (releaseOutput ends the hold).
    child.stdout.on('readable', hold);
    child.stderr.on('readable', hold);
    const end: ServerEnd = { exit: null, closed: false };
    child.once('exit', (code, signal) => (end.exit = { code, signal }));
    child.once('close', () => (end.closed = true));
    child.once('spawn', () => {
      started = true;
      resolve({ child: child as unknown as ChildProcessWithoutNullStreams, end });
    });
    // Resolves (reject: false) when the process is over; before 'spawn' that means it never started.
    void child.then((result) => {
      if (!started && result.failed) reject(spawnError(command, originalError(result.cause ?? result)));
    });
  });
}
