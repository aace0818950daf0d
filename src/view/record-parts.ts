/** Pieces of record rendering shared by the line and the body views. */
import type { BatchItem, LogRecord, Note } from '../log/record.js';
import { asObject, formatMs } from './format.js';
import { wireId, wireText } from './wire-text.js';

/** Ids longer than this are shortened on the one-line view. */
export const ID_MAX = 12;

/** The short label of each kind in the kind column. */
export const KIND_LABEL: Record<string, string> = {
  request: 'req',
  response: 'res',
  error: 'err',
  notification: 'notif',
  batch: 'batch',
  invalid: 'invalid',
  stderr: 'stderr',
  event: 'event',
};

/** One batch element in a line: kind, id, method, and for answers the request answered. */
export function batchItemText(o: BatchItem): string {
  const label = KIND_LABEL[String(o.kind)] ?? wireText(o.kind ?? '?', 12);
  const id = o.id !== undefined ? ` ${wireId(o.id, ID_MAX)}` : '';
  const method = typeof o.method === 'string' ? ` ${wireText(o.method, 60)}` : '';
  const ans = typeof o.reqSeq === 'number' ? ` ↩ #${o.reqSeq}${typeof o.ms === 'number' ? ' ' + formatMs(o.ms) : ''}` : '';
  const err = o.isError === true ? ' ✗ isError' : '';
  const notes = Array.isArray(o.notes) && o.notes.length ? ` ⚠ ${o.notes.length}` : '';
  return `${label}${id}${method}${ans}${err}${notes}`;
}

/** Fields every record has; not repeated in bodies. */
export const BASE_FIELDS = new Set(['v', 'time', 'session', 'seq', 'from', 'kind', 'event', 'notes']);

/** Fields of a record beyond the common ones (for events, and for what a newer writer added). */
export function extraFields(r: LogRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) if (!BASE_FIELDS.has(k)) out[k] = v;
  return out;
}

/** A record's notes, each text made a string (a note's text off the wire may be anything). */
export function notesOf(r: LogRecord): Note[] {
  if (!Array.isArray(r.notes)) return [];
  const out: Note[] = [];
  for (const n of r.notes) {
    const o = asObject(n);
    if (o) out.push({ code: o.code as string, text: typeof o.text === 'string' ? o.text : wireText(o.text) });
  }
  return out;
}

/** ` 1.2.0` after a name; nothing for a missing or blank version (no stray spaces). */
export function versionSuffix(v: unknown): string {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return '';
  return ` ${wireText(v, 20)}`;
}
