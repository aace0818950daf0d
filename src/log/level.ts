/**
 * Each record's pino-compatible `level`, so pino-pretty, `jq 'select(.level>=40)'` and pino transports
 * can filter a log: 50 for an error answer, an unreadable line or the server's failure, 40 for a record
 * with notes, a failed tool call or a loss, 30 for everything else. Pure; called once per record, so it looks at few members.
 */
import type { LogRecord } from './record.js';

export const INFO = 30;
export const WARN = 40;
export const ERROR = 50;

/** Events that report trouble without being failures of the server itself. */
const WARN_EVENTS = new Set(['kill', 'gap', 'sink-gap', 'host-gone']);

/** The level of one record. */
export function recordLevel(rec: LogRecord): number {
  const kind = rec.kind;
  if (kind === 'error' || kind === 'invalid') return ERROR;
  if (kind === 'event') return eventLevel(rec);
  if (kind === 'batch' && rec.items !== undefined) {
    for (const item of rec.items) if (item.kind === 'error' || item.kind === 'invalid') return ERROR;
  }
  // a tool that failed (result.isError) or a task that ended failed is not a protocol error
  return rec.notes !== undefined || rec.isError === true || (rec.taskMs !== undefined && rec.taskStatus === 'failed') ? WARN : INFO;
}

function eventLevel(rec: LogRecord): number {
  const event = rec.event;
  if (event === 'spawn-error' || event === 'log-error') return ERROR;
  // the server died: a non-zero exit code, or a signal (mcp-tap's own escalation included)
  if (event === 'exit') return (typeof rec['code'] === 'number' && rec['code'] !== 0) || typeof rec['signal'] === 'string' ? ERROR : INFO;
  if (event !== undefined && WARN_EVENTS.has(event)) return WARN;
  // a sign-in that did not end in an accepted retry
  if (event === 'auth') return rec['ok'] === true ? INFO : WARN;
  return rec.notes !== undefined ? WARN : INFO;
}
