import { PREFIX_KEYS, leftOut, plain, sessionTailOf, usualStart } from './head-start.js';
import { findTemplate, headFromWasm, learnTemplate, matched, values, type HeadTemplate } from './head-templates.js';
import { putMillis, putUint } from './put-decimal.js';
import type { LogRecord } from './record.js';

/**
 * A record head (`{"v":1,…,"msg":`) written straight into the log's buffer as bytes: the same bytes as
 * serializeHead's text in UTF-8 (test/unit/head-bytes.test.ts), without building a string per record.
 * On the hot path (one record per message) this is several times cheaper than JSON.stringify followed by
 * a UTF-8 encode, and it leaves nothing behind for the garbage collector. A record shaped like one seen
 * before (a template) whose numbers are whole thousandths — nearly every message record — has its whole
 * head written by the WebAssembly writer in one call (head-templates.ts); everything else here is JavaScript.
 */

const MSG = Buffer.from(',"msg":');
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** One record key: its `"key":` bytes, and the string last written under it with its quoted bytes. */
class KeySlot {
  readonly bytes: Buffer;
  lastString: string | undefined = undefined;
  lastBytes: Buffer | undefined = undefined;
  prevString: string | undefined = undefined;
  prevBytes: Buffer | undefined = undefined;
  constructor(key: string) {
    this.bytes = Buffer.from(`${JSON.stringify(key)}:`);
  }
}

/** Slots by key, made on first use; at most 256 are kept (event records bring keys of their own). */
const slots = new Map<string, KeySlot>();

function slotOf(key: string): KeySlot {
  let slot = slots.get(key);
  if (slot === undefined) {
    slot = new KeySlot(key);
    if (slots.size < 256) slots.set(key, slot);
  }
  return slot;
}

/** The id's slot: template heads write ids through it. */
const S_ID = slotOf('id');

function put(out: Buffer, at: number, bytes: Uint8Array): number {
  const n = bytes.length;
  if (n <= 16) {
    for (let k = 0; k < n; k++) out[at + k] = bytes[k]!;
  } else out.set(bytes, at);
  return at + n;
}

/** Writes ASCII text that needs no escaping (numbers' text, plain strings) byte by byte. */
function putAscii(out: Buffer, at: number, text: string): number {
  const n = text.length;
  for (let k = 0; k < n; k++) out[at + k] = text.charCodeAt(k);
  return at + n;
}

/** Quoted bytes of short plain strings seen before, for slots whose two recent values both missed. */
const stringBytes = new Map<string, Buffer>();

/** A string value; the slot remembers its two last short plain ones (session ids, kinds, methods repeat). */
function putString(out: Buffer, at: number, s: string, limit: number, slot: KeySlot): number {
  let known: Buffer | undefined;
  if (s === slot.lastString) known = slot.lastBytes;
  else if (s === slot.prevString) known = slot.prevBytes;
  else if (s.length <= 64) {
    known = stringBytes.get(s);
    if (known === undefined && plain(s)) {
      if (stringBytes.size >= 256) stringBytes.clear();
      known = Buffer.from(`"${s}"`, 'latin1');
      stringBytes.set(s, known);
    }
    if (known !== undefined) {
      slot.prevString = slot.lastString;
      slot.prevBytes = slot.lastBytes;
      slot.lastString = s;
      slot.lastBytes = known;
    }
  }
  if (known !== undefined) return at + known.length > limit ? -1 : put(out, at, known);
  if (plain(s)) {
    if (at + s.length + 2 > limit) return -1;
    out[at++] = 0x22;
    at = putAscii(out, at, s);
    out[at++] = 0x22;
    return at;
  }
  const j = JSON.stringify(s);
  if (at + j.length * 3 > limit) return -1;
  return at + out.write(j, at, 'utf8');
}

const PREFIX_V = Buffer.from('{"v":1,"time":');

/**
 * `{"v":1,"time":…,"session":"…","seq":` for the last time and session written. Made once per chunk
 * (its records share their time) with typed-array builtins only: Buffer's own methods here made V8
 * compile Node's Buffer code in the middle of a busy session.
 */
let lastTime = NaN;
/** PREFIX_V, the time's digits and the session tail, rewritten in place when the time changes (no allocation per chunk). */
const startBuf = new Uint8Array(64 + 300);
startBuf.set(PREFIX_V);
/** Longest text putMillis writes (a sign, 13 digits, a point and 3 decimals) and a margin. */
const MAX_TIME_TEXT = 24;
/** The view of startBuf's bytes in use. */
let startBytes = startBuf.subarray(0, 0);
/**
 * Views of startBuf by the length of the time's text, made when the session changes: a time written
 * per message (one message per read, as hosts send) then costs its digits and one copy, not a new view.
 */
let startViews: (typeof startBytes)[] = [];
/** Length of the time's text now in startBuf (the session tail follows it); -1 when none is. */
let timeTextLength = -1;
/** `,"session":"…","seq":` for sessionText. */
let sessionText: string | undefined;
let sessionTail: Uint8Array = new Uint8Array(0);

/** `,"from":"…","kind":"…"` for the few pairs records use, found by identity (the values are constants). */
const PAIRS = 16;
const pairFrom: string[] = [];
const pairKind: string[] = [];
const pairBytes: Buffer[] = [];

function fromKindBytes(from: string, kind: string): Buffer | undefined {
  const n = pairFrom.length;
  for (let k = 0; k < n; k++) if (pairFrom[k] === from && pairKind[k] === kind) return pairBytes[k];
  if (!plain(from) || !plain(kind) || from.length + kind.length > 64) return undefined;
  const bytes = Buffer.from(`,"from":"${from}","kind":"${kind}"`, 'latin1');
  if (n >= PAIRS) {
    pairFrom.length = 0;
    pairKind.length = 0;
    pairBytes.length = 0;
  }
  pairFrom.push(from);
  pairKind.push(kind);
  pairBytes.push(bytes);
  return bytes;
}

/** `{"v":1,"time":…,"session":"…","seq":…` from the record's first four members by name; -1 when they are not the usual ones. */
function putStart(record: LogRecord, out: Buffer, at: number, limit: number): number {
  if (!usualStart(record) || at + 64 > limit) return -1;
  const { time, session, seq } = record;
  if (session !== sessionText) {
    const tail = sessionTailOf(session);
    if (tail === undefined) return -1;
    sessionTail = tail;
    sessionText = session;
    startViews = [];
    for (let k = 0; k <= MAX_TIME_TEXT && PREFIX_V.length + k + sessionTail.length <= startBuf.length; k++) {
      startViews.push(startBuf.subarray(0, PREFIX_V.length + k + sessionTail.length));
    }
    timeTextLength = -1;
    lastTime = NaN;
  }
  if (time !== lastTime) {
    const end = putMillis(startBuf, PREFIX_V.length, time);
    if (end < 0) return -1;
    const k = end - PREFIX_V.length;
    const view = startViews[k];
    if (view === undefined) {
      // the digits overwrote part of the tail: write it again before the next time is read from here
      timeTextLength = -1;
      lastTime = NaN;
      return -1;
    }
    // the tail moves only when the time's text changes length (a decimal more or less)
    if (k !== timeTextLength) {
      startBuf.set(sessionTail, end);
      timeTextLength = k;
    }
    lastTime = time;
    startBytes = view;
  }
  if (at + startBytes.length + 16 > limit) return -1;
  at = put(out, at, startBytes);
  return putUint(out, at, seq);
}

/** Writes a number as JSON.stringify would when it is a small whole number or a whole number of thousandths; -1 otherwise. */
function putNumber(out: Buffer, at: number, n: number): number {
  if (n >= 0 && n < 2147483648 && (n | 0) === n) return putUint(out, at, n);
  return putMillis(out, at, n);
}

/** The head after `seq` from `tpl` and the values findTemplate left, in JavaScript; -1 when it may not fit. */
function putTemplate(tpl: HeadTemplate, out: Buffer, at: number, limit: number): number {
  const n = matched;
  if (at + tpl.size + n * 32 > limit) return -1;
  const runs = tpl.runs;
  for (let r = 0; r < n; r++) {
    at = put(out, at, runs[r]!);
    const v = values[r];
    at = typeof v === 'number' ? putNumber(out, at, v) : putString(out, at, v as string, limit, S_ID);
    if (at < 0) return -1;
  }
  return put(out, at, runs[n]!);
}

/** `,"from":"…","kind":"…"` after putStart; -1 when they are not strings that need no escaping. */
function putFromKind(record: LogRecord, out: Buffer, at: number, limit: number): number {
  const { from, kind } = record;
  if (typeof from !== 'string' || typeof kind !== 'string') return -1;
  const pair = fromKindBytes(from, kind);
  if (pair === undefined || at + pair.length > limit) return -1;
  return put(out, at, pair);
}

/** One member after the first: `,"key":value`. Returns the new position, -1 when it may not fit or cannot be written. */
function putMember(out: Buffer, at: number, slot: KeySlot, v: unknown, limit: number, comma: boolean): number {
  const t = typeof v;
  const k = slot.bytes;
  if (at + k.length + 32 > limit) return -1;
  if (comma) out[at++] = 0x2c;
  at = put(out, at, k);
  if (t === 'number') {
    const n = v as number;
    const end = putNumber(out, at, n);
    return end >= 0 ? end : putAscii(out, at, Number.isFinite(n) ? String(n) : 'null');
  }
  if (t === 'string') return putString(out, at, v as string, limit, slot);
  if (t === 'boolean') return put(out, at, v ? TRUE : FALSE);
  if (v === null) return put(out, at, NULL);
  // toJSON may give undefined (JSON.stringify then drops the member): the caller takes the string path
  const j = JSON.stringify(v) as string | undefined;
  if (j === undefined || at + j.length * 3 > limit) return -1;
  return at + out.write(j, at, 'utf8');
}

/** The keys after the prefix of the last record written, by position, with their slots: consecutive records mostly share them. */
const lastKeys: string[] = [];
const lastSlots: KeySlot[] = [];

/**
 * Writes the head of `record` into `out` at `at` and returns the position after `"msg":`, or -1 when it
 * might not fit in `out` (the caller then takes the string path). `out` must have `room` bytes free at `at`.
 */
export function writeHead(record: LogRecord, out: Buffer, at: number, room: number): number {
  const limit = at + room;
  const start = at;
  // a record shaped like one seen before: its whole head from the WebAssembly writer when it can
  const tpl = findTemplate(record);
  if (tpl !== null && tpl.slot >= 0) {
    const end = headFromWasm(record, tpl, out, at, limit);
    if (end >= 0) return end;
  }
  // the usual first members from a cached prefix; the rest from the template or member by member
  const afterSeq = putStart(record, out, at, limit);
  if (afterSeq >= 0) {
    const end = tpl === null ? -1 : putTemplate(tpl, out, afterSeq, limit);
    if (end >= 0) return end;
    let pos = putFromKind(record, out, afterSeq, limit);
    if (pos >= 0) {
      let i = 0;
      for (const key in record) {
        if (i < 6) {
          if (key !== PREFIX_KEYS[i]) {
            pos = -1;
            break;
          }
          i++;
          continue;
        }
        const v = record[key];
        const t = typeof v;
        if (leftOut(t)) continue;
        let slot: KeySlot;
        if (lastKeys[i] === key) slot = lastSlots[i]!;
        else {
          slot = slotOf(key);
          lastKeys[i] = key;
          lastSlots[i] = slot;
        }
        i++;
        pos = putMember(out, pos, slot, v, limit, true);
        if (pos < 0) return -1;
      }
      if (pos >= 0 && i >= 6 && pos + MSG.length <= limit) {
        learnTemplate(record);
        return put(out, pos, MSG);
      }
    }
  }
  // any other record: every member in order
  at = start;
  out[at++] = 0x7b;
  let first = true;
  for (const key in record) {
    const v = record[key];
    const t = typeof v;
    if (leftOut(t)) continue;
    at = putMember(out, at, slotOf(key), v, limit, !first);
    if (at < 0) return -1;
    first = false;
  }
  if (at + MSG.length > limit) return -1;
  // an empty record: `{"msg":`
  if (first) return putAscii(out, at, '"msg":');
  return put(out, at, MSG);
}
