/**
 * One line of a log → a record, a warning or nothing (a blank line), as readers get them: the envelope
 * check every record passes, the envelope alone when a reader does not need the body (cut before `msg`,
 * which mcp-tap writes last), and the session of a line without parsing it where it can be. Pure.
 */
import { escapeControl } from '../text/escape.js';
import { HEAD_BYTES, isSpace, type RawLine } from './log-lines.js';
import type { LogRecord } from './record.js';
import { dropNullFields, fieldProblem } from './record-fields.js';

/** A record and its 1-based line number in the file. */
export interface RecordItem {
  record: LogRecord;
  line: number;
  /** Byte offset where the record's line starts (its bytes are start..next: a reader that reads it again). */
  start?: number;
  /** Byte offset where the next line starts (a `start` for a reader that goes on after this record). */
  next?: number;
}

/** A line that did not yield a record, and why. */
export interface WarningItem {
  warning: string;
  line: number;
}

/** What a reader gets for each line that is not blank. */
export type ReadItem = RecordItem | WarningItem;

/** The warning for a last line cut short (a live log's record still being written, or damage). */
export const TORN_LAST_LINE = 'last line is incomplete (still being written?)';

type Obj = Record<string, unknown>;

/** The envelope every record has: an object with numeric v and seq, string session, from and kind. */
function hasEnvelope(x: unknown): x is Obj {
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

/**
 * A record readers can use: the envelope, and the fields they read of the types they expect
 * (record-fields.ts). Optional fields that are null are removed from `x` (a freshly parsed line) first.
 */
export function isLogRecord(x: unknown): x is LogRecord {
  if (!hasEnvelope(x)) return false;
  dropNullFields(x);
  return fieldProblem(x) === null;
}

/** The warning for a parsed line that is not a usable record: no envelope, or a field of the wrong type. */
function notARecord(value: unknown, head: Buffer): string {
  const problem = hasEnvelope(value) ? fieldProblem(value) : null;
  return `not an mcp-tap record (${problem !== null ? `${problem}: ` : ''}${preview(head, 40)})`;
}

/** A line's start as one safe line of text: control characters escaped, at most `max` characters. */
export function preview(head: Buffer, max = 80): string {
  const text = escapeControl(head.toString('utf8').replace(/\r$/, ''));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const MSG_MEMBER = Buffer.from(',"msg":');
const SESSION_MEMBER = Buffer.from(',"session":"');

/** A stand-in record with only the session of an mcp-tap record line (`,"session":"<id without escapes>"` near its start), or null. */
export function sessionItem(raw: RawLine): RecordItem | null {
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
export function classify(raw: RawLine, cap: number, needsBody?: (head: LogRecord, line: number) => boolean): ReadItem | null {
  const line = raw.line;
  if (needsBody !== undefined && 'data' in raw && raw.complete) {
    const head = headOnly(raw.data, raw.line, needsBody);
    if (head !== null) return { record: head, line, start: raw.start, next: raw.next };
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
  if (!isLogRecord(value)) return { warning: notARecord(value, raw.data.subarray(0, HEAD_BYTES)), line };
  return { record: value, line, start: raw.start, next: raw.next };
}
