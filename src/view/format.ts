/** Small text helpers shared by the terminal views: clock times, durations, shortening, padding. */

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local wall-clock time with milliseconds, `HH:MM:SS.mmm`; a placeholder when the time is unusable. */
export function formatClock(epochMs: unknown): string {
  if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) return '--:--:--.---';
  const d = new Date(epochMs);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** Local date and time to the second, `YYYY-MM-DD HH:MM:SS`, for session headers and `ls`. */
export function formatDateTime(epochMs: unknown): string {
  if (typeof epochMs !== 'number' || !Number.isFinite(epochMs)) return '????-??-?? ??:??:??';
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** A latency that stays short: `0.42ms`, `12.3ms`, `1234ms`, `12.3s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '?ms';
  if (ms < 0) return `${ms.toFixed(1)}ms`;
  if (ms < 10) return `${ms.toFixed(2)}ms`;
  if (ms < 100) return `${ms.toFixed(1)}ms`;
  if (ms < 10_000) return `${Math.round(ms)}ms`;
  if (ms < 100_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${Math.round(ms / 1000)}s`;
}

/** A session duration for `ls`: `850ms`, `4.2s`, `3m05s`, `2h04m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${pad2(s % 60)}s`;
  const m = Math.round(s / 60);
  if (m < 48 * 60) return `${Math.floor(m / 60)}h${pad2(m % 60)}m`;
  return `${Math.floor(m / 1440)}d${pad2(Math.floor((m % 1440) / 60))}h`;
}

/** Cuts a string to at most `max` characters, ending in `…`, without splitting a surrogate pair. */
export function shorten(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 1) return '…';
  let end = max - 1;
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…`;
}

/** Pads on the right to `width` characters (no-op when already wider). */
export function padRight(s: string, width: number): string {
  return s.length >= width ? s : s + ' '.repeat(width - s.length);
}

/** Pads on the left to `width` characters (no-op when already wider). */
export function padLeft(s: string, width: number): string {
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}

/** A plain object, for reading optional fields of untrusted JSON. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
