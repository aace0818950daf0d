/**
 * The markers the log writer leaves in a message it had to shorten (src/framing/json-shortener.ts):
 * a cut string ends with `…[truncated: N bytes]` (N = the string's raw bytes between its quotes), an
 * array that lost its tail ends with the element `"…[elided: N bytes]"`, an object that lost members
 * has the member `"…": "[elided: N bytes]"`. Replay compares what is left; mock serves what is left;
 * both say so.
 */
import { isObject } from '../protocol/jsonrpc.js';
import type { RecMsg } from './recorded.js';

const TRUNCATED = /…\[truncated: (\d+) bytes\]$/;
const ELIDED_ELEMENT = /^…\[elided: \d+ bytes\]$/;
const ELIDED_MEMBER = /^\[elided: \d+ bytes\]$/;

/** A cut string: the head the log kept and the byte size of the original (as raw JSON text between its quotes). */
export function cutString(s: string): { head: string; rawBytes: number } | null {
  const m = TRUNCATED.exec(s);
  return m ? { head: s.slice(0, m.index), rawBytes: Number(m[1]) } : null;
}

/** An array whose last element says that elements were left out: the number of elements kept. */
export function keptElements(a: readonly unknown[]): number | null {
  const last = a.at(-1);
  return typeof last === 'string' && ELIDED_ELEMENT.test(last) ? a.length - 1 : null;
}

/** True for the member an object gets when members were left out. */
export function isElidedMember(key: string, value: unknown): boolean {
  return key === '…' && typeof value === 'string' && ELIDED_MEMBER.test(value);
}

/** True when a shortened value really contains a marker (the record says `truncated`, this says where). */
export function hasMarkers(v: unknown): boolean {
  if (typeof v === 'string') return TRUNCATED.test(v) || ELIDED_ELEMENT.test(v);
  if (Array.isArray(v)) return v.some(hasMarkers);
  if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) if (isElidedMember(k, x) || hasMarkers(x)) return true;
  }
  return false;
}

/**
 * A message can be sent as it was: the log kept it whole (or at least this element of a shortened batch);
 * a request, answer or notification as a JSON object (a damaged record may hold none).
 */
export function replayable(m: RecMsg): boolean {
  if (m.kind === 'invalid') return m.raw !== undefined ? !m.truncated : m.msg !== undefined && !m.truncated;
  if (!isObject(m.msg)) return false;
  if (!m.truncated) return true;
  return m.batchSize !== undefined && !hasMarkers(m.msg);
}

/**
 * Whether a whole string matches a cut one: the kept head is a prefix, and its raw JSON size is the
 * recorded one (as JSON.stringify writes it, or with every non-ASCII character escaped as \uXXXX, the
 * two ways servers commonly write strings).
 */
export function matchesCut(cut: { head: string; rawBytes: number }, s: string): 'same' | 'head' | 'size' {
  if (!s.startsWith(cut.head)) return 'head';
  const json = JSON.stringify(s).slice(1, -1);
  if (Buffer.byteLength(json) === cut.rawBytes) return 'same';
  const ascii = json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return ascii.length === cut.rawBytes ? 'same' : 'size';
}

/** Why a record that was not shortened still cannot be replayed: it holds no message object. */
export const NO_MESSAGE = 'holds no message to send (its msg is missing or not a JSON object: a damaged or edited log)';

/** The advice for a message the log shortened, with the size to record with. */
export function recordLargerAdvice(bytes: number | undefined): string {
  const at = bytes !== undefined ? Math.max(1024, Math.ceil((bytes + 1) / 1024) * 1024) : undefined;
  return at !== undefined
    ? `record the session again with --max-log-bytes ${at} (or more) to keep it whole`
    : 'record the session again with a larger --max-log-bytes to keep it whole';
}
