/**
 * Templates of record heads: a record shaped like one seen before (the same members from `from` on, the
 * same string values but the id) is matched to the template learnt from that one, and its head is then
 * a few constant runs and its numbers. A template whose runs fit gets a slot in the WebAssembly writer
 * (head-wasm.ts), which writes such a head in one call; head-bytes.ts writes the rest. Nearly every
 * message record is written this way.
 */
import { HEAD_SLOTS, loadHeadWriter } from './head-wasm.js';
import { PREFIX_KEYS, leftOut, sessionTailOf, usualStart } from './head-start.js';
import { thousandths } from './put-decimal.js';
import type { LogRecord } from './record.js';

/**
 * The rest of a head after `seq`, for records shaped like one seen before: the same members from `from`
 * on, in the same order, with the same string values except `id`. Such heads differ only in their
 * numbers and ids, so a template keeps the constant bytes between them as a few runs: writing a head
 * is then a few copies and the numbers, instead of a key and a value per member.
 */
export class HeadTemplate {
  /** The `from` and `kind` baked in (undefined when not): a record with others is not walked at all. */
  readonly from: string | undefined;
  readonly kind: string | undefined;

  constructor(
    /** Member keys from `from` on (members whose value is undefined are left out, as JSON.stringify does). */
    readonly keys: string[],
    /** Per key: the string value baked into the runs, or undefined for a value written each time (numbers, the id). */
    readonly texts: (string | undefined)[],
    /** runs[r] comes before variable value r; the last run ends with `,"msg":`. */
    readonly runs: Buffer[],
    /** Bytes in all runs. */
    readonly size: number,
  ) {
    this.from = keys[0] === 'from' ? texts[0] : undefined;
    this.kind = keys[1] === 'kind' ? texts[1] : undefined;
  }

  /** Its slot in the WebAssembly writer; -1 when it has none (its heads are written in JavaScript). */
  slot = -1;
}

/** Templates kept: one per slot of the WebAssembly writer. */
const MAX_TEMPLATES = HEAD_SLOTS;
const templates: HeadTemplate[] = [];
/** Records written by the member path since a template was last made (templates are not remade for every record when shapes keep changing). */
let sinceLearned = 0;
/** The variable values of the record being matched, in order. */
export const values: unknown[] = [];

/** Variable values of the record findTemplate matched last (in `values`). */
export let matched = 0;

/** The template the record fits (its values left in `values`, their number in `matched`), or null. */
export function findTemplate(record: LogRecord): HeadTemplate | null {
  const from: unknown = record.from;
  const kind: unknown = record.kind;
  for (let t = 0; t < templates.length; t++) {
    const tpl = templates[t]!;
    // requests and answers alternate: most misses are told by these two, before walking the members
    if ((tpl.from !== undefined && tpl.from !== from) || (tpl.kind !== undefined && tpl.kind !== kind)) continue;
    const n = matchTemplate(record, tpl);
    if (n < 0) continue;
    if (t > 0) {
      // the template used last is tried first next time
      templates[t] = templates[0]!;
      templates[0] = tpl;
    }
    matched = n;
    return tpl;
  }
  return null;
}

/** The WebAssembly writer (null where there is none). */
const wasm = loadHeadWriter();
/** Which of its template slots hold a template. */
const slotTaken: boolean[] = new Array<boolean>(HEAD_SLOTS).fill(false);
/** The session whose tail the writer holds. */
let wasmSession: string | undefined;

/**
 * The whole head of a record that fits `tpl`, written by the WebAssembly writer: when the record's start
 * is the usual one and every variable value is a number it writes exactly (thousandths()); else -1.
 */
export function headFromWasm(record: LogRecord, tpl: HeadTemplate, out: Buffer, at: number, limit: number): number {
  if (wasm === null || !usualStart(record)) return -1;
  const { time, session, seq } = record;
  if (session !== wasmSession) {
    const tail = sessionTailOf(session);
    if (tail === undefined || !wasm.session(tail)) return -1;
    wasmSession = session;
  }
  const slots = wasm.values;
  let m = thousandths(time);
  if (m !== m) return -1;
  slots[0] = m;
  const n = matched;
  for (let r = 0; r < n; r++) {
    const x = values[r];
    if (typeof x !== 'number') return -1;
    m = thousandths(x);
    if (m !== m) return -1;
    slots[r + 1] = m;
  }
  const length = wasm.head(tpl.slot, n, seq);
  if (at + length > limit) return -1;
  out.set(wasm.bytes(length), at);
  return at + length;
}

/** Gives a new template a slot in the WebAssembly writer when one is free and its runs fit. */
function placeTemplate(tpl: HeadTemplate): void {
  if (wasm === null) return;
  const slot = slotTaken.indexOf(false);
  if (slot < 0 || !wasm.template(slot, tpl.runs)) return;
  slotTaken[slot] = true;
  tpl.slot = slot;
}

/** The number of variable values when `record` fits `tpl` (its values are left in `values`), else -1. */
function matchTemplate(record: LogRecord, tpl: HeadTemplate): number {
  const keys = tpl.keys;
  const texts = tpl.texts;
  let i = 0;
  let j = 0;
  let n = 0;
  for (const key in record) {
    if (i < 4) {
      // v, time, session, seq: the start, written apart
      if (key !== PREFIX_KEYS[i]) return -1;
      i++;
      continue;
    }
    const v = record[key];
    const t = typeof v;
    if (leftOut(t)) continue;
    if (j >= keys.length || key !== keys[j]) return -1;
    const text = texts[j];
    if (text === undefined) {
      if (t !== 'number' && !(t === 'string' && key === 'id')) return -1;
      values[n++] = v;
    } else if (v !== text) return -1;
    j++;
  }
  return j === keys.length && i === 4 ? n : -1;
}

/** Makes a template from a record just written by the member path, when its members allow one. */
export function learnTemplate(record: LogRecord): void {
  if (templates.length >= MAX_TEMPLATES && ++sinceLearned < 16) return;
  const keys: string[] = [];
  const texts: (string | undefined)[] = [];
  const runs: Buffer[] = [];
  let run = '';
  let i = 0;
  for (const key in record) {
    if (i < 4) {
      i++;
      continue;
    }
    const v = record[key];
    const t = typeof v;
    if (leftOut(t)) continue;
    if (keys.length >= 32) return;
    run += `,${JSON.stringify(key)}:`;
    if (t === 'number' || (t === 'string' && key === 'id')) {
      keys.push(key);
      texts.push(undefined);
      runs.push(Buffer.from(run, 'utf8'));
      run = '';
    } else if (t === 'string' && (v as string).length <= 64) {
      keys.push(key);
      texts.push(v as string);
      run += JSON.stringify(v);
    } else return; // booleans, null, arrays, objects, long texts: member by member
  }
  runs.push(Buffer.from(`${run},"msg":`, 'utf8'));
  let size = 0;
  for (const r of runs) size += r.length;
  if (templates.length >= MAX_TEMPLATES) {
    const gone = templates.pop()!;
    if (gone.slot >= 0) slotTaken[gone.slot] = false;
  }
  const tpl = new HeadTemplate(keys, texts, runs, size);
  placeTemplate(tpl);
  templates.unshift(tpl);
  sinceLearned = 0;
}
