/**
 * Notices log files as they appear in a directory (`*.jsonrpc.log`, rotated copies left out): the live
 * UI and `tail -f --all` follow every server's log, including servers started after them. Polls (with
 * fs.watch as a wake-up where the platform has it); each file is announced once.
 */
import * as fs from 'node:fs';
import { listLogs } from './log-files.js';

export interface WatchDirOptions {
  dir: string;
  /** Polling interval (ms); default 500. */
  pollMs?: number;
  signal?: AbortSignal;
  /** Called once, after the logs there at the start have been announced. */
  ready?: () => void;
}

/** Calls `found(path)` for every log in `dir` now (oldest first) and for each one created later, until the signal aborts. */
export async function watchLogDir(opts: WatchDirOptions, found: (path: string) => void): Promise<void> {
  const seen = new Set<string>();
  let first = true;
  let wake: (() => void) | null = null;
  let watcher: fs.FSWatcher | null = null;
  try {
    watcher = fs.watch(opts.dir, { persistent: false }, () => wake?.());
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = null; // missing directory or no fs.watch: polling finds the files
  }
  const onAbort = () => wake?.();
  opts.signal?.addEventListener('abort', onAbort);
  try {
    while (!opts.signal?.aborted) {
      const logs = (await listLogs(opts.dir)).reverse();
      for (const l of logs) {
        if (seen.has(l.path)) continue;
        seen.add(l.path);
        found(l.path);
      }
      if (first) {
        first = false;
        opts.ready?.();
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, opts.pollMs ?? 500);
        function done(): void {
          clearTimeout(t);
          wake = null;
          resolve();
        }
        wake = done;
        if (opts.signal?.aborted) done();
      });
    }
  } finally {
    if (first) opts.ready?.();
    opts.signal?.removeEventListener('abort', onAbort);
    watcher?.close();
  }
}
