/**
 * A session's records as both front-ends fold them: each record through the one row function
 * (src/session-view/to-row.ts), the rows through the view's fold (bars, lanes, outcomes), with the
 * origin and duration the report embeds. For the tests of the waterfall's rules.
 */
import type { LogRecord } from '../../src/log/record.js';
import { buildSessionModel } from '../../src/report/model.js';
import { SessionFold } from '../../src/session-view/fold.js';
import { toRow } from '../../src/session-view/to-row.js';

export function foldRecords(records: readonly LogRecord[]) {
  const m = buildSessionModel(records);
  const fold = new SessionFold(m.duration);
  fold.add(records.map((r) => toRow(r, m.origin)));
  return { ...m, fold, bars: fold.wf.bars, notifications: fold.wf.notifications, stderr: fold.wf.stderr, other: fold.wf.other };
}
