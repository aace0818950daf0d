/**
 * `mcp-tap tail --all`: every log of the log directory at once (and, with -f, logs created later),
 * records interleaved in time order, each line led by a server column. History: the last `lines`
 * records over all logs (their last sessions), merged by time; then live records, gathered for one
 * polling interval and written sorted by time, so two servers writing at once still read in order.
 * Filters, redaction and rendering are tail's own, one formatter per log (each keeps its session context).
 */
import { setMaxListeners } from 'node:events';
import { basename } from 'node:path';
import { InputError } from '../errors.js';
import { followFile } from '../log/follow.js';
import { lensStage } from '../lens/lenses.js';
import { listLogs } from '../log/log-files.js';
import type { LogRecord } from '../log/record.js';
import { watchLogDir } from '../log/watch-dir.js';
import { makeChalk } from './color.js';
import { escapeControl } from '../text/escape.js';
import { buildFilter } from './filters.js';
import { padRight } from './format.js';
import { FOLLOW_MAX_LAG, parseLogLine, skippedNotice, type TailIo, type TailRunOptions } from './tail-run.js';
import { roleOf, TailFormatter, type RingRole } from './tail-view.js';
import { pollWait } from './poll-wait.js';

/** Width of the server column. */
const SERVER_W = 16;
/** Live records held for the next write; past it the followers wait for that write (bounded memory). */
const MAX_HELD = 20_000;

interface Pending {
  time: number;
  order: number;
  text: () => string;
  /** Session start/end separators are not counted in the history; they frame the records shown. */
  role: RingRole;
  /** log + session */
  key: string;
}

/** The server column's name for a log: its file name without `.jsonrpc.log`. */
export function serverOfLog(path: string): string {
  return basename(path).replace(/\.jsonrpc\.log$/, '');
}

/** Prefixes every line of `text` (one record's output, with its newline) with the server column. */
export function withServerColumn(server: string, text: string, paint: (s: string) => string): string {
  const col = paint(padRight(escapeControl(server).slice(0, SERVER_W), SERVER_W));
  return text
    .split('\n')
    .map((line, i, all) => (i === all.length - 1 && line === '' ? '' : `${col} ${line}`))
    .join('\n');
}

/** Runs tail over every log of `dir` until the signal aborts (with follow) or the logs are read (without). */
export async function runTailAll(dir: string, opts: TailRunOptions, io: TailIo): Promise<void> {
  if (io.signal) setMaxListeners(0, io.signal); // one abort listener per followed log
  const filter = buildFilter({ ...opts.filter, keepSeparators: !opts.json, hideQuietExchanges: !opts.json });
  const chalk = makeChalk(opts.color);
  const width = opts.width !== undefined ? Math.max(41, opts.width - SERVER_W - 1) : undefined;
  const history = opts.lines ?? 20;
  let order = 0;
  let live = false;
  let held: Pending[] = [];
  /** Resolved after each live write: followers wait on it while `held` is full. */
  let written: { promise: Promise<void>; resolve: () => void } | null = null;
  const room = (): Promise<void> | undefined => {
    if (!live || held.length < MAX_HELD) return undefined;
    if (!written) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      written = { promise, resolve };
    }
    return written.promise;
  };
  const wakeFollowers = (): void => {
    const w = written;
    written = null;
    w?.resolve();
  };
  const maxLag = opts.json ? 0 : (opts.maxLagBytes ?? FOLLOW_MAX_LAG);
  const reading: Promise<void>[] = [];
  const follows: Promise<void>[] = [];

  const render = (path: string) => {
    const server = serverOfLog(path);
    const fmt = new TailFormatter({ filter, json: opts.json, color: opts.color, full: opts.full, width, redact: opts.redact });
    return (r: LogRecord): Pending | null => {
      const later = fmt.prepare(r);
      if (later === null) return null;
      const text = opts.json ? () => later().replace(/^\{/, `{"log":${JSON.stringify(basename(path))},`) : () => withServerColumn(server, later(), chalk.cyan);
      return { time: typeof r.time === 'number' ? r.time : 0, order: order++, text, role: opts.json ? 'item' : roleOf(r), key: `${path}\u0000${r.session}` };
    };
  };

  const write = async (items: Pending[]) => {
    items.sort((a, b) => a.time - b.time || a.order - b.order);
    if (items.length > 0) await io.write(items.map((p) => p.text()).join(''));
  };

  const follow = (path: string) => {
    const make = render(path);
    // until caught up: the last session's records only, the last `history` of them
    let session: string | null = null;
    let ring: Pending[] = [];
    let ringDone = false;
    let items = 0;
    let caught: () => void = () => {};
    let lastTime = 0;
    reading.push(new Promise<void>((resolve) => (caught = resolve)));
    let stage = lensStage(opts.lenses);
    const run = followFile(
      { path, signal: io.signal, pollMs: opts.pollMs, once: !opts.follow, ...(opts.follow && maxLag > 0 ? { maxLagBytes: maxLag } : {}) },
      {
        line: (text) => {
          const parsed = parseLogLine(text);
          if (parsed === null || typeof parsed === 'string') return undefined;
          const r = stage.apply(parsed);
          if (typeof r.time === 'number') lastTime = r.time;
          if (!ringDone) {
            if (r.session !== session) {
              session = r.session;
              ring = [];
              items = 0;
            }
            const p = make(r);
            if (p) {
              ring.push(p);
              if (p.role === 'item' && ++items > history) {
                // forget the oldest item (and anything framing only it)
                const at = ring.findIndex((x) => x.role === 'item');
                ring.splice(at, 1);
                items--;
              }
            }
            return undefined;
          }
          const p = make(r);
          if (p) held.push(p);
          return room();
        },
        skipped: (lines, bytes) => {
          const notice = skippedNotice(lines, bytes);
          held.push({ time: lastTime, order: order++, text: () => withServerColumn(serverOfLog(path), notice, chalk.cyan), role: 'item', key: `${path}\u0000` });
        },
        caughtUp: () => {
          ringDone = true;
          held.push(...ring);
          ring = [];
          caught();
        },
        reset: () => {
          stage = lensStage(opts.lenses);
        },
      },
    ).catch((err: unknown) => {
      io.warn(`${escapeControl(path)}: ${(err as Error).message}`);
      caught();
    });
    follows.push(run);
  };

  let watching: Promise<void> = Promise.resolve();
  if (opts.follow) {
    let firstRound: () => void = () => {};
    const listed = new Promise<void>((resolve) => (firstRound = resolve));
    watching = watchLogDir({ dir, pollMs: opts.pollMs ?? 200, signal: io.signal, ready: () => firstRound() }, (path) => {
      if (live) io.warn(`following ${escapeControl(basename(path))} too`);
      follow(path);
    });
    await listed;
    if (follows.length === 0) io.warn(`no logs in ${escapeControl(dir)} yet; waiting for servers to start`);
  } else {
    const logs = (await listLogs(dir)).reverse();
    if (logs.length === 0) throw new InputError(`no logs in ${dir}; run mcp-tap -- <server> first`);
    for (const l of logs) follow(l.path);
  }
  await Promise.all(reading);
  // the history: the latest records over all logs, in time order
  await write(pickHistory(held, history));
  held = [];
  live = true;
  if (!opts.follow) {
    await Promise.all(follows);
    return;
  }
  while (!io.signal?.aborted) {
    await pollWait(opts.pollMs ?? 200, io.signal);
    const batch = held;
    held = [];
    await write(batch);
    wakeFollowers();
  }
  wakeFollowers(); // a follower waiting for room must see the abort
  await Promise.all([watching, ...follows]);
}

/** The last `history` records over all logs, with the start/end separators of the sessions they belong to. */
function pickHistory(all: Pending[], history: number): Pending[] {
  const byTime = (a: Pending, b: Pending) => a.time - b.time || a.order - b.order;
  const items = all.filter((p) => p.role === 'item').sort(byTime);
  const kept = items.slice(Math.max(0, items.length - history));
  const shown = new Set(kept.map((p) => p.key));
  return [...kept, ...all.filter((p) => p.role !== 'item' && shown.has(p.key))];
}
