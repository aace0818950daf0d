/**
 * What the page asks of one session on demand: its rows so far (history, then the event stream carries
 * the rest), and one record's body, redacted exactly as export redacts it unless the person asked to
 * reveal it. Both read the log through read-log, streaming: nothing of a session is kept in memory.
 * Both carry the lenses' notes.
 */
import type { LensKind } from '../lens/lens.js';
import { lensStage } from '../lens/lenses.js';
import { readRecords } from '../log/read-log.js';
import { onlySession } from '../log/read-session.js';
import type { LogRecord } from '../log/record.js';
import { RecordRedactor, type RedactOptions } from '../transcript/redact.js';
import { isQuietExchange } from '../log/http-records.js';
import { toRow } from '../session-view/to-row.js';
import { rowRedactor } from './row-redact.js';

/**
 * The rows of `session` in `path`, as JSON lines, a batch at a time; their times count from `origin`
 * (the session card's start; by default the session's first record).
 */
export async function* sessionRowLines(path: string, session: string, redact?: RedactOptions, lenses?: readonly LensKind[], origin?: number): AsyncGenerator<string> {
  let batch: string[] = [];
  const text = rowRedactor(redact);
  let from = origin;
  for await (const item of readRecords(path, { stage: onlySession(lensStage(lenses), session) })) {
    if (!('record' in item) || item.record.session !== session) continue;
    from ??= typeof item.record.time === 'number' ? item.record.time : 0;
    if (isQuietExchange(item.record)) continue;
    batch.push(JSON.stringify(toRow(item.record, from, text)));
    if (batch.length >= 1000) {
      yield `${batch.join('\n')}\n`;
      batch = [];
    }
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}

/**
 * Record `seq` of `session`; redacted unless `reveal`. The redactor sees the session's raw lines before it
 * in order, as export's does, so a private key printed over several stderr lines is redacted the same.
 */
export async function findRecord(
  path: string,
  session: string,
  seq: number,
  reveal: boolean,
  redact?: RedactOptions,
  lenses?: readonly LensKind[],
): Promise<LogRecord | undefined> {
  const redactor = reveal ? null : new RecordRedactor(redact);
  // the lenses see the session's records before it in order, as every other reader's do
  for await (const item of readRecords(path, { stage: onlySession(lensStage(lenses), session) })) {
    if (!('record' in item)) continue;
    const r = item.record;
    if (r.session !== session) continue;
    if (r.seq === seq) return redactor ? redactor.next(r) : r;
    if (redactor && typeof r.raw === 'string') redactor.next(r);
  }
  return undefined;
}
