/**
 * What the HTML report needs of a session besides its rows: its id, the server's name, the time its
 * rows count from and how long it lasted (the waterfall itself is folded from the rows in the page,
 * src/session-view/bars.ts, as in the live UI). Pure; times are milliseconds.
 */
import type { LogRecord } from '../log/record.js';
import { round3 } from '../session-view/to-row.js';
import { summarizeSession, type SessionSummary } from '../transcript/summary.js';

/** One session, ready to embed. */
export interface SessionModel {
  id: string;
  name: string;
  /** Epoch ms the offsets count from (the session start). */
  origin: number;
  /** Ms from the start to the last record: where unanswered bars end. */
  duration: number;
  summary: SessionSummary;
  records: readonly LogRecord[];
}

/**
 * One session's records (in log order) → what the page embeds. `summary`: the whole session's, when
 * the records are a sample of it (src/transcript/sampling.ts).
 */
export function buildSessionModel(records: readonly LogRecord[], summary: SessionSummary = summarizeSession(records)): SessionModel {
  const origin = summary.header.start;
  let duration = Math.max(0, summary.header.durationMs);
  for (const r of records) duration = Math.max(duration, round3((typeof r.time === 'number' && Number.isFinite(r.time) ? r.time : origin) - origin));
  const first = records[0];
  const start = records.find((r) => r.kind === 'event' && r.event === 'start');
  return {
    id: summary.header.session || (first && typeof first.session === 'string' ? first.session : ''),
    name: typeof start?.['name'] === 'string' ? start['name'] : 'unnamed server',
    origin,
    duration: round3(duration),
    summary,
    records,
  };
}
