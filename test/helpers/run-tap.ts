/**
 * Runs the built CLI (`node bin/mcp-tap.js …`) as a real child process with three pipes, collecting
 * stdout as Buffers (byte exactness) and stderr as text, and waiting for its exit with a deadline.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { CLI, ROOT, tempDir } from './paths.js';
import { waitFor } from './wait.js';

export interface TapRun {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /** stdout so far, as raw chunks. */
  stdoutChunks: Buffer[];
  stdout: () => Buffer;
  stderr: () => string;
  /** Resolves when the process has exited and its pipes closed; rejects after `timeoutMs`. */
  exited: (timeoutMs?: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until stderr contains `text` (or matches a regex). */
  waitStderr: (pattern: string | RegExp, timeoutMs?: number) => Promise<void>;
  /** Writes to mcp-tap's stdin, honouring backpressure. */
  write: (data: Buffer | string) => Promise<void>;
  /** Kills it (SIGKILL) if still running: cleanup for failed tests. */
  kill: () => void;
}

export interface RunTapOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Collect stdout (default true); false leaves the stream to the caller. */
  collect?: boolean;
  /** Run as this user (and its group of the same number); only root may. */
  uid?: number;
  /** Another `bin/mcp-tap.js` to run (default: this checkout's). */
  cli?: string;
  /** Flags for node itself, before the CLI (V8's logs, say). */
  nodeArgs?: string[];
}

/** Starts `node [nodeArgs] bin/mcp-tap.js ...args`. */
export function runTap(args: string[], opts: RunTapOptions = {}): TapRun {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.cli ?? CLI, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  const stdoutChunks: Buffer[] = [];
  let stderr = '';
  if (opts.collect !== false) child.stdout.on('data', (c: Buffer) => stdoutChunks.push(c));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => (stderr += s));
  child.stdin.on('error', () => {}); // EPIPE when mcp-tap is gone: the test asserts on what matters
  let result: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => {
      result = { code, signal };
      resolve(result);
    });
  });
  return {
    child,
    pid: child.pid!,
    stdoutChunks,
    stdout: () => Buffer.concat(stdoutChunks),
    stderr: () => stderr,
    exited: async (timeoutMs = 10_000) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          closed,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`mcp-tap did not exit within ${timeoutMs} ms; stderr so far:\n${stderr}`)), timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    waitStderr: async (pattern, timeoutMs = 10_000) => {
      await waitFor(() => (typeof pattern === 'string' ? stderr.includes(pattern) : pattern.test(stderr)), timeoutMs, `stderr to contain ${String(pattern)}; got:\n${stderr}`);
    },
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        child.stdin.write(data, (err) => (err ? reject(err) : resolve()));
      }),
    kill: () => {
      if (result === null) child.kill('SIGKILL');
    },
  };
}

/** The lines mcp-tap itself wrote to stderr (prefixed `mcp-tap:`). */
export function tapLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('mcp-tap:'));
}

/** What a test file gets from tapSandbox: a scratch directory per test and cleanup of what it started. */
export interface TapSandbox {
  /** This test's scratch directory (fresh for every test). */
  readonly dir: string;
  /** Registers a run to SIGKILL after the test (cleanup when the test failed before it ended); returns it. */
  track<T extends TapRun>(run: T): T;
  /** Files holding pids (servers, grandchildren) to SIGKILL after the test; tests may add to it. */
  readonly pidFiles: string[];
}

/**
 * Registers beforeEach/afterEach for a test file that runs mcp-tap: a fresh scratch directory per test,
 * and afterwards every tracked run killed, every process named in `pidFiles` killed (a server the test
 * failed to see die must not outlive the test run), the directory removed. `pidFileNames` are files in
 * the scratch directory that start each test's `pidFiles`.
 */
export function tapSandbox(prefix?: string, pidFileNames: readonly string[] = []): TapSandbox {
  let tmp: { dir: string; cleanup: () => void } | null = null;
  let runs: TapRun[] = [];
  const pidFiles: string[] = [];
  beforeEach(() => {
    tmp = tempDir(prefix);
    runs = [];
    pidFiles.length = 0;
    for (const name of pidFileNames) pidFiles.push(join(tmp.dir, name));
  });
  afterEach(() => {
    for (const r of runs) r.kill();
    for (const f of pidFiles) {
      if (!existsSync(f)) continue;
      try {
        process.kill(Number(readFileSync(f, 'utf8')), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    tmp?.cleanup();
  });
  return {
    get dir() {
      if (tmp === null) throw new Error('tapSandbox: dir is only there inside a test');
      return tmp.dir;
    },
    track(run) {
      runs.push(run);
      return run;
    },
    pidFiles,
  };
}
