/**
 * `mcp-tap tail` wired to its edges: picks the log, reads it through read-log (or follows it through
 * follow.ts), and writes what the TailFormatter makes of each record. The edges (output, warnings, stop
 * signal, environment) are passed in, so tests can run it in memory.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { LensKind } from '../lens/lens.js';
import { lensStage } from '../lens/lenses.js';
import { followFile } from '../log/follow.js';
import { offsetOfLastLines } from '../log/last-lines.js';
import { lineNeedsBody } from './tail-body.js';
import { findLatestLog } from '../log/log-files.js';
import { isLogRecord, readRecords, TORN_LAST_LINE, tornLastLineWarning, type WarningItem } from '../log/read-log.js';
import { readSession, resolveSession } from '../log/read-session.js';
import { LOG_FORMAT_VERSION, type LogRecord } from '../log/record.js';
import { defaultLogDir } from '../log/log-path.js';
import type { ColorLevel } from './color.js';
import { escapeControl } from '../text/escape.js';
import { buildFilter, type FilterOptions } from './filters.js';
import { FollowSelector, Ring, roleOf, SeparatorGate, TailFormatter, type SessionChoice } from './tail-view.js';
import { pollWait } from './poll-wait.js';

/** Output of a finished log is written in pieces of about this many characters. */
const WRITE_CHARS = 64 * 1024;

/** Unreadable lines reported one by one before tail stops reporting them. */
const MAX_WARNINGS = 20;

export interface TailRunOptions {
  /** The log; default: $MCP_TAP_LOG when it exists, else the most recently written log in the default directory. */
  file?: string;
  follow: boolean;
  /** 'last', 'all', or a session id (or unique prefix). */
  session: string;
  /** How many records of history to show first; undefined = all of the chosen session(s). */
  lines?: number;
  full: boolean;
  json: boolean;
  filter: FilterOptions;
  color: ColorLevel;
  width?: number;
  /** Redaction, applied to every record shown (JSON and terminal view alike): see TailFormatOptions.redact. */
  redact?: (r: LogRecord) => LogRecord;
  /** Follow polling interval (ms). */
  pollMs?: number;
  /** The lenses whose notes records get (default: every lens, src/lens/lenses.ts). */
  lenses?: readonly LensKind[];
  /**
   * With --follow, not --json: when the reader is this many bytes behind the end of the log, it skips
   * ahead and says how many lines it skipped (default FOLLOW_MAX_LAG; 0: never skip).
   */
  maxLagBytes?: number;
}

/** How far behind the end of the log `tail -f` may fall before it skips ahead (a flood it cannot render as fast). */
export const FOLLOW_MAX_LAG = 8 * 1024 * 1024;

/** The line `tail -f` prints where it skipped part of the log to keep up. */
export function skippedNotice(lines: number, bytes: number): string {
  const mb = bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
  return `… skipped ${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'} of the log (${mb}) to keep up with it; mcp-tap tail --session <id> or export shows them\n`;
}

export interface TailIo {
  /** Writes output; resolves when the destination can take more. */
  write(text: string): Promise<void> | void;
  /** One line for stderr. */
  warn(message: string): void;
  /** Stops following (Ctrl-C is left to the default handler; this is for a closed stdout and for tests). */
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** Runs tail to completion (without follow) or until the signal aborts (with follow). */
export async function runTail(opts: TailRunOptions, io: TailIo): Promise<void> {
  const path = await pickLog(opts.file, io.env ?? process.env);
  const fmt = new TailFormatter({
    filter: buildFilter({ ...opts.filter, keepSeparators: !opts.json, hideQuietExchanges: !opts.json }),
    json: opts.json,
    color: opts.color,
    full: opts.full,
    width: opts.width,
    redact: opts.redact,
  });
  let told = false;
  const prepare = (r: LogRecord): (() => string) | null => {
    const later = fmt.prepare(r);
    if (!told && fmt.newerVersion !== null) {
      told = true;
      io.warn(`${escapeControl(path)} has records of log format v${fmt.newerVersion}, newer than this mcp-tap reads (v${LOG_FORMAT_VERSION}); showing what it understands`);
    }
    return later;
  };
  // each line once, and not endlessly; warnings come in line order, so remembering the last line reported
  // is enough to ignore a repeat (memory stays constant however many lines are bad)
  let reported = 0;
  let lastLine = 0;
  const onWarning = (w: WarningItem) => {
    if (w.line <= lastLine) return;
    lastLine = w.line;
    // a finished log cut inside its last record: worth a word (tail -f waits for such a line instead)
    if (w.warning === TORN_LAST_LINE) {
      io.warn(tornLastLineWarning(path, w.line));
      return;
    }
    reported++;
    if (reported <= MAX_WARNINGS) io.warn(`${escapeControl(path)}:${w.line}: ${w.warning}`);
    else if (reported === MAX_WARNINGS + 1) io.warn(`${escapeControl(path)}: more lines that are not records; not reporting them`);
  };
  if (opts.follow && opts.file !== undefined && !(await waitForFile(path, opts, io))) return;
  if (opts.follow) await followTail(path, opts, io, prepare);
  else await printTail(path, opts, io, prepare, onWarning);
}

/**
 * With --follow, a named log that does not exist yet is waited for (like `tail -F`): start the viewer
 * before the host starts the server. False when the wait was aborted.
 */
async function waitForFile(path: string, opts: TailRunOptions, io: TailIo): Promise<boolean> {
  let said = false;
  for (;;) {
    try {
      await stat(path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return true; // let the reader report it
    }
    if (!said) {
      said = true;
      io.warn(`waiting for ${escapeControl(path)} to appear`);
    }
    if (io.signal?.aborted) return false;
    await pollWait(opts.pollMs ?? 200, io.signal);
    if (io.signal?.aborted) return false;
  }
}

/** The file named, else $MCP_TAP_LOG when it exists, else the newest log in the default directory. */
async function pickLog(file: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  if (file !== undefined) return resolve(file);
  if (env.MCP_TAP_LOG) {
    const p = resolve(env.MCP_TAP_LOG);
    try {
      if ((await stat(p)).isFile()) return p;
    } catch {
      // not written yet: fall back on the default directory
    }
  }
  return findLatestLog(defaultLogDir(env));
}

/** Without --follow: the chosen session(s), or their last `lines` records, then exit. */
async function printTail(
  path: string,
  opts: TailRunOptions,
  io: TailIo,
  prepare: (r: LogRecord) => (() => string) | null,
  onWarning: (w: WarningItem) => void,
): Promise<void> {
  const filtering = isFiltering(opts.filter);
  if (opts.lines !== undefined && opts.session !== 'all' && opts.session !== 'last') {
    // an id or a prefix: resolved over the whole file below
  } else if (opts.lines !== undefined) {
    const region = await lastRecords(path, opts, prepare, (w) => io.warn(`${escapeControl(path)}: ${w.warning}${w.warning === TORN_LAST_LINE ? '' : ' (near the end)'}`));
    if (region !== null) {
      if (region.length) await io.write(region.join(''));
      return;
    }
  }
  // with -n, only the records kept are rendered
  const ring = opts.lines !== undefined ? new Ring<() => string>(opts.lines, filtering) : null;
  const gate = new SeparatorGate();
  const needsBody = bodyRule(opts);
  // lines go out ~64 KiB at a time: one write per record leaves a buffer per record for the GC to find
  let held: string[] = [];
  let size = 0;
  for await (const r of readSession(path, opts.session, { onWarning, stage: lensStage(opts.lenses), ...(needsBody ? { needsBody } : {}) })) {
    if (io.signal?.aborted) return;
    const later = prepare(r);
    if (later === null) continue;
    if (ring) ring.push(later, opts.json ? 'item' : roleOf(r));
    else {
      const text = later();
      const shown = opts.json || !filtering ? text : gate.pass(r, text);
      if (shown === null) continue;
      held.push(shown);
      size += shown.length;
      if (size >= WRITE_CHARS) {
        await io.write(held.join(''));
        held = [];
        size = 0;
      }
    }
  }
  if (size > 0) await io.write(held.join(''));
  if (ring) {
    const lines = ring.take().map((later) => later());
    if (lines.length) await io.write(lines.join(''));
  }
}

/**
 * `-n` without `-f` on 'last' or 'all': the outputs to print, from a region at the end of the file big
 * enough to hold them (read backwards to find it, growing fourfold until it holds `lines` records of the
 * chosen session or that session's start), or null when the region grew to the whole file.
 */
async function lastRecords(path: string, opts: TailRunOptions, prepare: (r: LogRecord) => (() => string) | null, warn: (w: WarningItem) => void): Promise<string[] | null> {
  const start = await historyStart(path, opts, prepare, warn);
  if (start === null) return null;
  return start.outputs;
}

/** The offset where enough history for `opts.lines` begins, and that history; null when it is the whole file. */
async function historyStart(
  path: string,
  opts: TailRunOptions,
  prepare: (r: LogRecord) => (() => string) | null,
  warn?: (w: WarningItem) => void,
): Promise<{ offset: number; outputs: string[] } | null> {
  const wanted = opts.lines ?? 20;
  const choice: SessionChoice = opts.session === 'all' ? { kind: 'all' } : { kind: 'last' };
  for (let lines = wanted * 2 + 16; ; lines *= 4) {
    const offset = await offsetOfLastLines(path, lines);
    if (offset === 0) return null;
    const selector = new FollowSelector(choice, wanted, opts.json, isFiltering(opts.filter));
    let items = 0;
    const warnings: WarningItem[] = [];
    const needsBody = bodyRule(opts);
    // a fresh stage per region: the lenses see each record once, in order
    for await (const item of readRecords(path, { start: offset, stage: lensStage(opts.lenses), ...(needsBody ? { needsBody } : {}) })) {
      if (!('record' in item)) {
        warnings.push(item);
        continue;
      }
      items++;
      selector.add(item.record, prepare(item.record));
    }
    if (items > 0 && selector.historyComplete()) {
      for (const w of warnings) warn?.(w);
      return { offset, outputs: selector.caughtUp() };
    }
  }
}

/** With --follow: the last records of the chosen session(s), then everything appended, across truncation and rotation. */
async function followTail(path: string, opts: TailRunOptions, io: TailIo, prepare: (r: LogRecord) => (() => string) | null): Promise<void> {
  let choice: SessionChoice;
  if (opts.session === 'last') choice = { kind: 'last' };
  else if (opts.session === 'all') choice = { kind: 'all' };
  else {
    const [s] = await resolveSession(path, opts.session);
    choice = { kind: 'id', id: s!.id };
  }
  await probeLog(path);
  const filtering = isFiltering(opts.filter);
  // start near the end when the history fits there (the region is read twice: found, then followed)
  const startAt = choice.kind === 'id' ? null : await historyStart(path, opts, prepare);
  const selector = new FollowSelector(choice, opts.lines ?? 20, opts.json, filtering);
  const gate = new SeparatorGate();
  let lineNo = 0;
  let warnings = 0;
  let stage = lensStage(opts.lenses);
  const name = escapeControl(path);
  // JSON goes to programs that set their own pace: it never skips
  const maxLag = opts.json ? 0 : (opts.maxLagBytes ?? FOLLOW_MAX_LAG);
  await followFile(
    { path, signal: io.signal, pollMs: opts.pollMs, ...(startAt !== null ? { startAt: startAt.offset } : {}), ...(maxLag > 0 ? { maxLagBytes: maxLag } : {}) },
    {
      line: (text) => {
        lineNo++;
        const line = parseLogLine(text);
        if (line === null) return;
        if (typeof line === 'string') {
          warnings++;
          if (warnings <= MAX_WARNINGS) io.warn(`${name}:${lineNo}: ${line}`);
          else if (warnings === MAX_WARNINGS + 1) io.warn(`${name}: more lines that are not records; not reporting them`);
          return;
        }
        const parsed = stage.apply(line);
        const out = selector.add(parsed, prepare(parsed));
        const shown = out === null || opts.json || !filtering ? out : gate.pass(parsed, out);
        // the write's promise holds the reading back while the destination is full
        if (shown !== null) return io.write(shown) ?? undefined;
        return undefined;
      },
      skipped: (lines, bytes) => {
        lineNo += lines;
        void io.write(skippedNotice(lines, bytes));
      },
      caughtUp: () => {
        const history = selector.caughtUp();
        if (history.length) void io.write(history.join(''));
      },
      reset: (why) => {
        lineNo = 0;
        stage = lensStage(opts.lenses);
        io.warn(why === 'truncated' ? `${name} was truncated; reading it from the start` : `${name} was replaced (rotated?); reading the new file from the start`);
      },
      dropped: (why, bytes) => {
        io.warn(
          why === 'too-long'
            ? `${name}: skipped a line of ${bytes} bytes (longer than the line limit)`
            : `${name}: an unfinished last line of ${bytes} bytes was abandoned when the file was truncated or replaced`,
        );
      },
    },
  );
}

/** The one-line view reads bodies only where the line shows them; --full, --json and --grep need every body. */
function bodyRule(opts: TailRunOptions): ((head: LogRecord) => boolean) | undefined {
  return opts.full || opts.json || opts.filter.grep !== undefined ? undefined : lineNeedsBody;
}

/** True when some filter is set (then sessions with nothing to show leave no separators). */
function isFiltering(f: FilterOptions): boolean {
  return Object.values(f).some((v) => v !== undefined && v !== false);
}

/** Fails with read-log's one-line error when the file is missing or is not an mcp-tap log. */
async function probeLog(path: string): Promise<void> {
  for await (const item of readRecords(path)) {
    if ('record' in item) break;
  }
}

/** One line of a followed log → a record, a warning, or null for a blank line (read-log's rules for one line). */
export function parseLogLine(text: string): LogRecord | string | null {
  const t = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (t.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return `not JSON (${escapeControl(t.slice(0, 40))}${t.length > 40 ? '…' : ''})`;
  }
  if (!isLogRecord(value)) return `not an mcp-tap record (${escapeControl(t.slice(0, 40))}${t.length > 40 ? '…' : ''})`;
  return value;
}

/** A history count from the command line. */
export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`-n takes a number of records, got ${JSON.stringify(value)}`);
  return Number(value);
}
