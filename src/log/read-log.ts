/**
 * The one way readers (tail, ls, export, stats, check, diff, replay, mock) get records out of a log.
 * Streams the file with bounded memory, tolerates what a live or damaged log contains (a torn last
 * line, foreign lines, over-long lines, records of a newer format or with unknown fields) and turns files
 * that are not logs at all into one clear InputError. The file's lines come from log-lines.ts, each
 * line's record or warning from record-line.ts.
 */
import { InputError } from '../errors.js';
import { escapeControl } from '../text/escape.js';
import { byteOrderMark, UTF8_BOM_BYTES } from './byte-order-mark.js';
import { describeFsError } from './fs-error.js';
import { HEAD_BYTES, LogLineSplitter, type RawLine } from './log-lines.js';
import { openToRead } from './open-to-read.js';
import type { LogRecord } from './record.js';
import { classify, preview, sessionItem, TORN_LAST_LINE, type ReadItem, type WarningItem } from './record-line.js';

// what readers use of a line → record, here with the rest of the reading (readers read through this module)
export { isLogRecord, sessionOfLine, TORN_LAST_LINE } from './record-line.js';
export type { ReadItem, RecordItem, WarningItem } from './record-line.js';

export interface ReadOptions {
  /** Lines longer than this are skipped with a warning, never held whole. Default 64 MiB. */
  maxLineBytes?: number;
  /** A file with no record among its first this many non-empty lines is not a log. Default 20. */
  probeLines?: number;
  /** Read size. Default 256 KiB. */
  chunkBytes?: number;
  /** Start reading at this byte offset (a line start); line numbers then count from there. Default 0. */
  start?: number;
  /**
   * Readers that summarize (stats, check, ls) parse only a record's envelope: everything before its `msg`
   * member, which mcp-tap writes last. This says, from that envelope, which records they need whole;
   * the others come without `msg` (and their body is not checked to be JSON). Default: every record whole.
   * Also told the record's line number (a reader that goes on from a line skips the bodies before it).
   */
  needsBody?: (head: LogRecord, line: number) => boolean;
  /**
   * Only which session each record belongs to (resolving 'last' or an id prefix): records then carry a
   * real `session` and nothing else of use, taken from the line without parsing it where it can be.
   */
  sessionsOnly?: boolean;
  /** Told the bytes read and records yielded so far, after every chunk (progress lines). */
  onProgress?: (bytes: number, records: number) => void;
  /**
   * A stage every record passes through before it is yielded (the reader-side lenses,
   * src/lens/apply-lenses.ts). Bodies it needs are parsed for it; where the reader's own `needsBody` did
   * not ask for one, the record still comes without `msg`. Not applied with `sessionsOnly`.
   */
  stage?: RecordStage;
}

/** What readRecords' `stage` option takes: an in-order pass over records that may add to them. */
export interface RecordStage {
  /** Whether the stage reads this record's body (asked only of records the reader reads as envelopes). */
  needsBody(head: LogRecord): boolean;
  /** The record, with what the stage adds (notes); called once per record, in file order. */
  apply(record: LogRecord): LogRecord;
}

/** Why a log file cannot be read at all. */
export type LogProblem = 'missing' | 'unreadable' | 'not-a-log' | 'no-session';

/** A log that cannot be used: missing, unreadable, not an mcp-tap log, or without the session asked for. */
export class LogNotUsable extends InputError {
  constructor(
    message: string,
    readonly path: string,
    readonly problem: LogProblem,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LogNotUsable';
  }
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const DEFAULT_PROBE_LINES = 20;

/**
 * What readers of a finished log (tail without -f, export, stats) say about its torn last line: it may be
 * damage (a log cut inside a record) as well as a line still being written. `tail -f` waits for it instead.
 */
export function tornLastLineWarning(path: string, line: number): string {
  return `${escapeControl(path)}: last line is incomplete (line ${line}: cut inside a record, or still being written); left out`;
}

/** Opens `path` for reading, with the one-line errors readers show. */
async function openLog(path: string) {
  let fh;
  try {
    fh = await openToRead(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new LogNotUsable(`no such log: ${path}`, path, 'missing', { cause: err });
    throw new LogNotUsable(`cannot read ${path} (${describeFsError(err)})`, path, 'unreadable', { cause: err });
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    throw new LogNotUsable(`${path} is ${st.isDirectory() ? 'a directory' : 'not a regular file'}, not a log`, path, 'unreadable');
  }
  return fh;
}

/**
 * Every line of the log as a record or a warning, in file order (after a UTF-8 byte order mark, which is
 * skipped). Throws LogNotUsable when the file is missing or unreadable, UTF-16, or when none of its first
 * lines is a record (not an mcp-tap log).
 */
export async function* readRecords(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadItem> {
  const cap = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const probe = opts.probeLines ?? DEFAULT_PROBE_LINES;
  const fh = await openLog(path);
  let start = opts.start ?? 0;
  if (start === 0) {
    const bom = await byteOrderMark(fh).catch(() => null); // a read error is the stream's to report
    if (bom === 'utf-16') {
      await fh.close();
      throw new LogNotUsable(`${path} is UTF-16 text, not an mcp-tap log (logs are UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8)`, path, 'not-a-log');
    }
    if (bom === 'utf-8') start = UTF8_BOM_BYTES;
  }
  const stream = fh.createReadStream({ highWaterMark: opts.chunkBytes ?? 256 * 1024, ...(start ? { start } : {}) });
  const splitter = new LogLineSplitter(cap, start);
  let records = 0;
  let seenLines = 0;
  let firstLine: string | null = null;
  // warnings before the first record wait until the file proves to be a log
  let early: WarningItem[] = [];
  let tornStart = false;

  const notALog = () =>
    new LogNotUsable(`${path} is not an mcp-tap log (first line: ${firstLine ?? ''})`, path, 'not-a-log');

  const stage = opts.sessionsOnly === true ? undefined : opts.stage;
  const own = opts.needsBody;
  const needsBody = stage && own ? (head: LogRecord, line: number) => own(head, line) || stage.needsBody(head) : own;

  function* judge(raw: RawLine): Generator<ReadItem> {
    const item = (opts.sessionsOnly === true ? sessionItem(raw) : null) ?? classify(raw, cap, needsBody);
    if (item === null) return; // blank line
    if (stage && 'record' in item) {
      stage.apply(item.record);
      // a body parsed only for the stage: the reader gets the envelope it asked for
      if (own && item.record.msg !== undefined && !own(item.record, item.line)) delete item.record.msg;
    }
    seenLines++;
    if (firstLine === null) firstLine = preview('data' in raw ? raw.data.subarray(0, HEAD_BYTES) : raw.head);
    if ('record' in item) {
      records++;
      if (early.length > 0) {
        yield* early;
        early = [];
      }
      yield item;
      return;
    }
    if (records > 0) {
      yield item;
      return;
    }
    early.push(item);
    tornStart = item.warning === TORN_LAST_LINE && seenLines === 1 && 'data' in raw;
    if (seenLines >= probe) throw notALog();
  }

  try {
    const lines: RawLine[] = [];
    let read = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      read += chunk.length;
      opts.onProgress?.(read, records);
      splitter.push(chunk, lines);
      for (const raw of lines) yield* judge(raw);
      lines.length = 0;
    }
    splitter.end(lines);
    for (const raw of lines) yield* judge(raw);
    if (records === 0 && seenLines > 0) {
      // a log whose first record is still being written is a log; anything else without records is not
      if (tornStart && seenLines === 1) yield* early;
      else throw notALog();
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new LogNotUsable(`cannot read ${path} (${describeFsError(err)})`, path, 'unreadable', { cause: err });
  } finally {
    stream.destroy();
    await fh.close().catch(() => {});
  }
}
