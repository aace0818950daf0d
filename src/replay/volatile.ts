/**
 * The default volatile fields: what differs between two runs of the same server without meaning a
 * change in behaviour, left out of replay comparisons unless --strict. Documented in docs/replay.md.
 * - `_meta` members at any depth (MCP's metadata: server info, trace ids, progress tokens, related task);
 * - `result.requestState` (2026-07-28: an opaque state the server hands out and gets back);
 * - timestamps: values under a time-like key (`time`, `timestamp`, `date`, `createdAt`, `updated_at`,
 *   `startTime`, …) when both sides hold the same JSON type, and ISO 8601 date-times inside strings
 *   (`2026-01-02T10:00:00.123Z`, also with a space instead of `T`) — the rest of the string must match.
 */
import type { Segment } from './json-path.js';

/** Keys whose whole subtree is volatile. */
export function isVolatileKey(key: string, parent: readonly Segment[]): boolean {
  if (key === '_meta') return true;
  return key === 'requestState' && parent.length === 1 && parent[0] === 'result';
}

const TIME_KEY = /^(?:time|timestamp|date|datetime|ts)$|(?:[a-z0-9](?:At|Time|Timestamp|Date)|_(?:at|time|timestamp|date))$/;

/** A key whose value is a time (compared only for its JSON type). */
export function isTimeKey(key: Segment | undefined): boolean {
  return typeof key === 'string' && TIME_KEY.test(key);
}

const ISO_DATE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}(?::?\d{2})?)?/g;

/** The string with every ISO 8601 date-time replaced by a placeholder; null when it holds none. */
export function maskTimestamps(s: string): string | null {
  ISO_DATE_TIME.lastIndex = 0;
  if (!ISO_DATE_TIME.test(s)) return null;
  ISO_DATE_TIME.lastIndex = 0;
  return s.replace(ISO_DATE_TIME, '\u0000ts\u0000');
}
