/**
 * Exports read logs they did not write (newer versions, other tools, hand edits): read-log checks only
 * the envelope. This makes the optional fields the renderers rely on have the contract's types, dropping
 * what does not fit, so a foreign value can never crash an export. Returns the record itself when it is
 * already in shape.
 */
import type { BatchItem, LogRecord, Note } from '../log/record.js';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isId = (v: unknown): boolean => v === null || typeof v === 'string' || isNum(v);
const isNote = (n: unknown): n is Note => n !== null && typeof n === 'object' && typeof (n as Note).code === 'string' && typeof (n as Note).text === 'string';

function saneNotes(v: unknown): Note[] | undefined {
  if (!Array.isArray(v)) return undefined;
  if (v.every(isNote)) return v;
  return v
    .filter((n): n is Record<string, unknown> => n !== null && typeof n === 'object')
    .map((n) => ({ code: typeof n['code'] === 'string' ? n['code'] : 'unknown', text: typeof n['text'] === 'string' ? n['text'] : JSON.stringify(n['text']) ?? '' }));
}

function saneItem(v: unknown): BatchItem | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const item: BatchItem = { kind: (typeof o['kind'] === 'string' ? o['kind'] : 'invalid') as BatchItem['kind'] };
  if (o['id'] !== undefined && isId(o['id'])) item.id = o['id'] as BatchItem['id'];
  if (typeof o['method'] === 'string') item.method = o['method'];
  if (isNum(o['reqSeq'])) item.reqSeq = o['reqSeq'];
  if (isNum(o['ms'])) item.ms = o['ms'];
  if (o['isError'] === true) item.isError = true;
  const notes = saneNotes(o['notes']);
  if (notes) item.notes = notes;
  if (typeof o['target'] === 'string') (item as BatchItem & { target?: string }).target = o['target'];
  return item;
}

const CHECKS: Array<[string, (v: unknown) => boolean]> = [
  ['id', isId],
  ['method', (v) => typeof v === 'string'],
  ['target', (v) => typeof v === 'string'],
  ['reqSeq', isNum],
  ['ms', isNum],
  ['exchangeMs', isNum],
  ['retryOf', isNum],
  ['taskId', (v) => typeof v === 'string'],
  ['taskOf', isNum],
  ['taskStatus', (v) => typeof v === 'string'],
  ['taskMs', isNum],
  ['bytes', isNum],
  ['raw', (v) => typeof v === 'string'],
  ['event', (v) => typeof v === 'string'],
  ['isError', (v) => v === true],
  ['truncated', (v) => v === true],
  ['partial', (v) => v === true],
];

/** The record with every optional contract field of the right type (or absent). */
export function saneRecord(r: LogRecord): LogRecord {
  let out: LogRecord | null = null;
  const own = () => (out ??= { ...r });
  if (!isNum(r.time)) own().time = 0;
  for (const [k, ok] of CHECKS) if (r[k] !== undefined && !ok(r[k])) delete own()[k];
  if (r.notes !== undefined) {
    const n = saneNotes(r.notes);
    if (n !== r.notes) {
      if (n) own().notes = n;
      else delete own().notes;
    }
  }
  if (r.items !== undefined) {
    const items = Array.isArray(r.items) ? r.items.map(saneItem).filter((x): x is BatchItem => x !== null) : undefined;
    const same = items !== undefined && Array.isArray(r.items) && items.length === r.items.length && items.every((x, i) => JSON.stringify(x) === JSON.stringify(r.items![i]));
    if (!same) {
      if (items) own().items = items;
      else delete own().items;
    }
  }
  return out ?? r;
}
