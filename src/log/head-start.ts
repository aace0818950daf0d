/**
 * The start every session record's head has — `{"v":1,"time":…,"session":"…","seq":…` — as both byte
 * writers take it (head-bytes.ts in JavaScript, head-templates.ts through WebAssembly): which records
 * have it, the bytes of its session member, and which members JSON.stringify leaves out. Pure.
 */
import type { LogRecord } from './record.js';

/** The members every session record starts with, in this order (Session.base). */
export const PREFIX_KEYS = ['v', 'time', 'session', 'seq', 'from', 'kind'];

/** Does JSON.stringify leave out a member whose value's `typeof` is `t`? The head writers skip it too. */
export function leftOut(t: string): boolean {
  return t === 'undefined' || t === 'function' || t === 'symbol';
}

/** Is the string printable ASCII without `"` or `\` (written as is between quotes)? */
export function plain(s: string): boolean {
  const n = s.length;
  if (n > 256) return false;
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** Is the record's start the usual one: v 1, a number time, a string session, seq a whole number below 2^31? */
export function usualStart(record: LogRecord): boolean {
  const { v, time, session, seq } = record;
  return v === 1 && typeof time === 'number' && typeof session === 'string' && typeof seq === 'number' && seq >= 0 && seq < 2147483648 && (seq | 0) === seq;
}

/** `,"session":"…","seq":` for a session written as is between quotes; undefined when it needs escaping. */
export function sessionTailOf(session: string): Buffer | undefined {
  return plain(session) ? Buffer.from(`,"session":"${session}","seq":`, 'latin1') : undefined;
}
