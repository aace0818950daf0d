/**
 * The one way readers (tail, ls, export, stats, check, diff, replay, mock) get records out of a log.
 * Streams the file with bounded memory, tolerates what a live or damaged log contains (a torn last
 * line, foreign lines, over-long lines, records of a newer format or with unknown fields) and turns files
 * that are not logs at all into one clear InputError.
 */
import { open } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { escapeControl } from '../text/escape.js';
import { describeFsError } from './fs-error.js';
import type { LogRecord } from './record.js';

/** A record and its 1-based line number in the file. */
export interface RecordItem {
  record: LogRecord;
  line: number;
  /** Byte offset where the next line starts (a `start` for a reader that goes on after this record). */
  next?: number;
}

/** A line that did not yield a record, and why. */
export interface WarningItem {
  warning: string;
  line: number;
}

export type ReadItem = RecordItem | WarningItem;

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
/** Bytes of a line kept for messages when the line itself is not kept. */
const HEAD_BYTES = 320;

export const TORN_LAST_LINE = 'last line is incomplete (still being written?)';

/**
 * What readers of a finished log (tail without -f, export, stats) say about its torn last line: it may be
 * damage (a log cut inside a record) as well as a line still being written. `tail -f` waits for it instead.
 */
export function tornLastLineWarning(path: string, line: number): string {
  return `${escapeControl(path)}: last line is incomplete (line ${line}: cut inside a record, or still being written); left out`;
}

type Obj = Record<string, unknown>;

/** The envelope every record has: an object with numeric v and seq, string session, from and kind. */
export function isLogRecord(x: unknown): x is LogRecord {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const o = x as Obj;
  return (
    typeof o['v'] === 'number' &&
    typeof o['session'] === 'string' &&
    typeof o['seq'] === 'number' &&
    typeof o['from'] === 'string' &&
    typeof o['kind'] === 'string'
  );
}

/** A line's start as one safe line of text: control characters escaped, at most `max` characters. */
function preview(head: Buffer, max = 80): string {
  const text = escapeControl(head.toString('utf8').replace(/\r$/, ''));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** What the splitter hands over for each line. */
type RawLine =
  | { line: number; next: number; data: Buffer; complete: boolean }
  | { line: number; next: number; head: Buffer; bytes: number; complete: boolean; reason: 'long' | 'foreign' };

/**
 * Buffer → lines on LF, with bounded memory: a line that cannot be a record (its first non-blank byte is
 * not `{`) or that is longer than the cap keeps only its head.
 */
class LogLineSplitter {
  private parts: Buffer[] = [];
  private held = 0;
  private bytes = 0;
  private head: Buffer[] = [];
  private headLen = 0;
  private mode: 'hold' | 'long' | 'foreign' = 'hold';
  private sawContent = false;
  private lineNo = 1;

  /** `pos`: the file offset of the first byte it is given. */
  constructor(
    private readonly cap: number,
    private pos = 0,
  ) {}

  push(chunk: Buffer, out: RawLine[]): void {
    const base = this.pos;
    this.pos += chunk.length;
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (end > start) this.take(chunk, start, end);
      if (nl === -1) return;
      out.push(this.flush(true, base + nl + 1));
      start = nl + 1;
    }
  }

  end(out: RawLine[]): void {
    if (this.bytes > 0) out.push(this.flush(false, this.pos));
  }

  private take(chunk: Buffer, start: number, end: number): void {
    this.bytes += end - start;
    if (this.mode !== 'hold') {
      this.keepHead(chunk, start, end);
      return;
    }
    if (!this.sawContent) {
      let i = start;
      while (i < end && isSpace(chunk[i]!)) i++;
      if (i < end) {
        this.sawContent = true;
        if (chunk[i] !== 0x7b) {
          this.drop('foreign');
          this.keepHead(chunk, start, end);
          return;
        }
      }
    }
    if (this.held + (end - start) > this.cap) {
      this.drop('long');
      this.keepHead(chunk, start, end);
      return;
    }
    // a view, not a copy: the read stream hands out a fresh buffer per chunk
    this.parts.push(chunk.subarray(start, end));
    this.held += end - start;
  }

  /** The first HEAD_BYTES of a line that is not kept whole (copied: the chunk is let go). */
  private keepHead(chunk: Buffer, start: number, end: number): void {
    if (this.headLen >= HEAD_BYTES) return;
    const h = chunk.subarray(start, Math.min(end, start + HEAD_BYTES - this.headLen));
    this.head.push(Buffer.from(h));
    this.headLen += h.length;
  }

  private drop(mode: 'long' | 'foreign'): void {
    this.mode = mode;
    // the line's start, from the views held so far (a line held whole needs no copy of its head)
    for (const p of this.parts) {
      if (this.headLen >= HEAD_BYTES) break;
      const h = p.subarray(0, HEAD_BYTES - this.headLen);
      this.head.push(Buffer.from(h));
      this.headLen += h.length;
    }
    this.parts = [];
    this.held = 0;
  }

  private flush(complete: boolean, next: number): RawLine {
    const line = this.lineNo++;
    let out: RawLine;
    if (this.mode === 'hold') {
      const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.held);
      out = { line, next, data, complete };
    } else {
      out = { line, next, head: Buffer.concat(this.head, this.headLen), bytes: this.bytes, complete, reason: this.mode };
    }
    this.parts = [];
    this.held = 0;
    this.bytes = 0;
    this.head = [];
    this.headLen = 0;
    this.mode = 'hold';
    this.sawContent = false;
    return out;
  }
}

/** Opens `path` for reading, with the one-line errors readers show. */
async function openLog(path: string) {
  let fh;
  try {
    fh = await open(path, 'r');
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
 * Every line of the log as a record or a warning, in file order. Throws LogNotUsable when the file is
 * missing or unreadable, or when none of its first lines is a record (not an mcp-tap log).
 */
export async function* readRecords(path: string, opts: ReadOptions = {}): AsyncGenerator<ReadItem> {
  const cap = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const probe = opts.probeLines ?? DEFAULT_PROBE_LINES;
  const fh = await openLog(path);
  const stream = fh.createReadStream({ highWaterMark: opts.chunkBytes ?? 256 * 1024, ...(opts.start ? { start: opts.start } : {}) });
  const splitter = new LogLineSplitter(cap, opts.start ?? 0);
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

const MSG_MEMBER = Buffer.from(',"msg":');
const SESSION_MEMBER = Buffer.from(',"session":"');

/** A stand-in record with only the session of an mcp-tap record line (`,"session":"<id without escapes>"` near its start), or null. */
function sessionItem(raw: RawLine): RecordItem | null {
  if (!('data' in raw) || !raw.complete) return null;
  const d = raw.data;
  if (d[0] !== 0x7b) return null;
  let end = d.length;
  if (end > 0 && d[end - 1] === 0x0d) end--;
  if (d[end - 1] !== 0x7d) return null;
  const at = d.subarray(0, Math.min(end, 200)).indexOf(SESSION_MEMBER);
  if (at === -1) return null;
  const from = at + SESSION_MEMBER.length;
  const close = d.indexOf(0x22, from);
  if (close === -1 || close > from + 200 || d.subarray(from, close).includes(0x5c)) return null;
  const session = d.toString('utf8', from, close);
  return { record: { v: 0, time: 0, session, seq: 0, from: 'proxy', kind: 'event' }, line: raw.line };
}

const SESSION_NEAR_START = /^\{[^]{0,200}?,"session":"([^"\\]{1,200})"/;

/**
 * The session of one log line as a follower hands it over (a watcher that only wants to know which
 * sessions appear): from `,"session":"…"` near its start as mcp-tap writes it, else from the parsed
 * line; null for a line that is not a record.
 */
export function sessionOfLine(text: string): string | null {
  const m = SESSION_NEAR_START.exec(text);
  if (m) return m[1]!;
  if (!text.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isLogRecord(value) ? value.session : null;
  } catch {
    return null;
  }
}

/**
 * The record without its body when the envelope alone will do: the text before `,"msg":` closed with `}`.
 * That byte sequence cannot occur inside a JSON string (its quote is unescaped), and the cut parses only
 * when it is at the record's top level; anything else falls back to the whole line. When `needsBody`
 * wants the body, the text after the cut is parsed as `msg` (the head is not parsed twice).
 */
function headOnly(data: Buffer, line: number, needsBody: (head: LogRecord, line: number) => boolean): LogRecord | null {
  let end = data.length;
  if (end > 0 && data[end - 1] === 0x0d) end--;
  if (end === 0 || data[end - 1] !== 0x7d) return null;
  const cut = data.indexOf(MSG_MEMBER);
  if (cut <= 0) return null;
  // only when msg is the last member: a record may carry fields after it (other writers, hand edits)
  let after = valueEnd(data, cut + MSG_MEMBER.length, end);
  while (after > 0 && after < end && isSpace(data[after]!)) after++;
  if (after !== end - 1) return null;
  let value: unknown;
  try {
    value = JSON.parse(`${data.toString('utf8', 0, cut)}}`);
  } catch {
    return null;
  }
  if (!isLogRecord(value)) return null;
  if (!needsBody(value, line)) return value;
  // the body too: parse only it (the head is parsed already); anything odd takes the whole-line path
  try {
    value.msg = JSON.parse(data.toString('utf8', cut + MSG_MEMBER.length, after));
  } catch {
    return null;
  }
  return value;
}

/**
 * Where the JSON object or array starting at `i` ends (the index after it), or -1 for anything else.
 * Strings are skipped with indexOf, so a body's long strings cost a memchr, not a loop in JavaScript.
 */
function valueEnd(d: Buffer, i: number, end: number): number {
  while (i < end && isSpace(d[i]!)) i++;
  let depth = 0;
  while (i < end) {
    const c = d[i]!;
    if (c === 0x22) {
      let j = i + 1;
      for (;;) {
        j = d.indexOf(0x22, j);
        if (j === -1 || j >= end) return -1;
        let k = j - 1;
        while (d[k] === 0x5c) k--;
        if (((j - 1 - k) & 1) === 0) break; // an even run of backslashes: the quote is not escaped
        j++;
      }
      i = j + 1;
      if (depth === 0) return -1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return -1;
    } else if (depth === 0) return -1;
    i++;
  }
  return -1;
}

/** One line → a record, a warning, or null for a blank line. */
function classify(raw: RawLine, cap: number, needsBody?: (head: LogRecord, line: number) => boolean): ReadItem | null {
  const line = raw.line;
  if (needsBody !== undefined && 'data' in raw && raw.complete) {
    const head = headOnly(raw.data, raw.line, needsBody);
    if (head !== null) return { record: head, line, next: raw.next };
  }
  if ('reason' in raw) {
    if (raw.reason === 'long') {
      return { warning: `line of ${raw.bytes} bytes is longer than the ${cap}-byte limit; skipped`, line };
    }
    if (!raw.complete) return { warning: TORN_LAST_LINE, line };
    return { warning: `not an mcp-tap record (${preview(raw.head, 40)})`, line };
  }
  let text = raw.data.toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (!raw.complete) return { warning: TORN_LAST_LINE, line };
    return { warning: `not JSON (${preview(raw.data.subarray(0, HEAD_BYTES), 40)})`, line };
  }
  if (!isLogRecord(value)) return { warning: `not an mcp-tap record (${preview(raw.data.subarray(0, HEAD_BYTES), 40)})`, line };
  return { record: value, line, next: raw.next };
}
