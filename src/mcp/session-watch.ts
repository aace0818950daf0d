/**
 * Tells `mcp-tap mcp` when a session appears that it has not listed: follows every log of the
 * directory from its last line (and logs created later from their start, src/log/watch-dir.ts) with
 * the follower of `tail -f`, reading only which session each new line belongs to. Symbolic links are not
 * followed, as LogSource does not list them. I/O edge; stops with the signal.
 */
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { followFile } from '../log/follow.js';
import { offsetOfLastLines } from '../log/last-lines.js';
import { sessionOfLine } from '../log/read-log.js';
import { watchLogDir } from '../log/watch-dir.js';
import type { Served } from './log-source.js';

export interface SessionWatchOptions {
  served: Served;
  /** The session ids there are, asked once every log is followed (nothing is announced for them). */
  known: () => Promise<Iterable<string>>;
  /** Told the sessions not known before whose lines were written (at most once per `debounceMs`). */
  onNewSessions: (ids: string[]) => void;
  signal: AbortSignal;
  pollMs?: number;
  debounceMs?: number;
  /** A log that could not be followed. */
  warn?: (message: string) => void;
}

/** Watches until the signal aborts; resolves once every log there at the start is being followed. */
export async function watchSessions(opts: SessionWatchOptions): Promise<void> {
  // null until the logs are followed and the sessions listed: the ids seen meanwhile wait in `early`
  let known: Set<string> | null = null;
  const early = new Set<string>();
  const followed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let fresh: string[] = [];
  const announce = (id: string) => {
    fresh.push(id);
    if (timer !== null || opts.signal.aborted) return;
    timer = setTimeout(() => {
      timer = null;
      const ids = fresh;
      fresh = [];
      if (!opts.signal.aborted) opts.onNewSessions(ids);
    }, opts.debounceMs ?? 100);
    timer.unref();
  };
  opts.signal.addEventListener('abort', () => {
    if (timer !== null) clearTimeout(timer);
  });
  const follow = async (path: string, fromEnd: boolean): Promise<void> => {
    if (followed.has(path)) return;
    followed.add(path);
    const st = await lstat(path).catch(() => null);
    if (!st?.isFile()) return;
    // a log there before: from its last line (a session announced by its next lines); a new log: all of it
    const startAt = fromEnd ? await offsetOfLastLines(path, 1).catch(() => 0) : 0;
    const line = (text: string) => {
      const id = sessionOfLine(text);
      if (id === null) return;
      if (known === null) early.add(id);
      else if (!known.has(id)) {
        known.add(id);
        announce(id);
      }
    };
    void followFile({ path, signal: opts.signal, startAt, ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}) }, { line }).catch((err: unknown) => {
      opts.warn?.(`cannot follow ${path}: ${(err as Error).message}`);
    });
  };
  const listed = async () => {
    const ids = new Set(await opts.known());
    for (const id of early) {
      if (ids.has(id)) continue;
      ids.add(id);
      announce(id);
    }
    early.clear();
    known = ids;
  };
  if ('file' in opts.served) {
    await follow(resolve(opts.served.file), true);
    await listed();
    return;
  }
  const dir = resolve(opts.served.dir);
  const starting: Promise<void>[] = [];
  let initial = true;
  await new Promise<void>((ready) => {
    void watchLogDir(
      {
        dir,
        signal: opts.signal,
        ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
        ready: () => {
          initial = false;
          ready();
        },
      },
      (path) => {
        const p = follow(path, initial);
        if (initial) starting.push(p);
      },
    ).catch((err: unknown) => {
      opts.warn?.(`cannot watch ${dir}: ${(err as Error).message}`);
      ready();
    });
  });
  await Promise.all(starting);
  await listed();
}
