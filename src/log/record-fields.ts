/**
 * The fields readers use past a record's envelope, checked for their type where present. A record whose
 * `method` is an object, whose `notes` hold null or whose `time` is no date (a hand edit, another writer,
 * damage) would otherwise reach code that calls string, array and date methods on them and stop the
 * whole reader with an internal error; it is skipped with a warning instead, as a foreign line is (a null
 * is taken for the field's absence). Only what a reader may act on is checked (docs/log-format.md has
 * the full contract: validate-record.ts).
 * Pure, and cheap next to the JSON.parse of the line: a few typeof per record.
 */

type Obj = Record<string, unknown>;

/** Milliseconds from the epoch that a Date holds (±100,000,000 days). */
const MAX_TIME = 8.64e15;
/** Fields that are strings where present: names readers show, match and escape. */
const STRINGS = ['method', 'target', 'raw', 'event', 'taskId', 'taskStatus'] as const;
/** Fields that are whole numbers where present: seqs readers link by and turn into span ids. */
const SEQS = ['reqSeq', 'retryOf', 'taskOf'] as const;

/** The optional fields a null stands for the absence of. */
const OPTIONAL: readonly string[] = [...STRINGS, ...SEQS, 'notes', 'items'];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Removes the optional fields `o` has as null: JSON's spelling of "none" (hand-written logs use it), which
 * readers take as absent. `id` keeps its null, a JSON-RPC id of its own.
 */
export function dropNullFields(o: Obj): void {
  for (const f of OPTIONAL) if (o[f] === null) delete o[f];
  const items = o['items'];
  if (Array.isArray(items)) for (const it of items) if (isObj(it)) for (const f of OPTIONAL) if (it[f] === null) delete it[f];
}

/** Why the fields of record `o` (its envelope already checked) cannot be used, or null. */
export function fieldProblem(o: Obj): string | null {
  if (o['session'] === '') return 'session is empty';
  if (!Number.isInteger(o['seq'])) return 'seq is not a whole number';
  const time = o['time'];
  if (typeof time !== 'number' || !(Math.abs(time) <= MAX_TIME)) return 'time is not a time (epoch ms)';
  const p = common(o, '');
  if (p !== null) return p;
  if (!('items' in o)) return null;
  const items = o['items'];
  if (!Array.isArray(items)) return 'items is not an array';
  for (let i = 0; i < items.length; i++) {
    const it: unknown = items[i];
    if (!isObj(it) || typeof it['kind'] !== 'string') return `items[${i}] is not a batch element`;
    const q = common(it, `items[${i}].`);
    if (q !== null) return q;
  }
  return null;
}

/** The checks records and batch elements share. */
function common(o: Obj, at: string): string | null {
  for (const f of STRINGS) if (f in o && typeof o[f] !== 'string') return `${at}${f} is not a string`;
  for (const f of SEQS) if (f in o && !Number.isInteger(o[f])) return `${at}${f} is not a whole number`;
  if ('id' in o) {
    const id = o['id'];
    if (id !== null && typeof id !== 'string' && typeof id !== 'number') return `${at}id is not a string, number or null`;
  }
  if (!('notes' in o)) return null;
  const notes = o['notes'];
  if (!Array.isArray(notes)) return `${at}notes is not an array`;
  for (let i = 0; i < notes.length; i++) {
    const n: unknown = notes[i];
    if (!isObj(n) || typeof n['code'] !== 'string' || typeof n['text'] !== 'string') return `${at}notes[${i}] is not a {code, text} finding`;
  }
  return null;
}
