/**
 * The records a page of one session shows (the Markdown export, the HTML report, `mcp-tap mcp`'s session
 * resources): the whole session when it is short, else a sample of it (sampling.ts) with the summary of
 * the whole. Three bounded passes over the log: which session, its summary and plan, the records to show.
 */
import { contextNeedsBody } from '../lens/context/context-cost.js';
import type { Tokenizer } from '../lens/context/tokenizer.js';
import { lensStage } from '../lens/lenses.js';
import { readSession, resolveSession } from '../log/read-session.js';
import type { LogRecord } from '../log/record.js';
import { openInput } from './read-input.js';
import type { RecordRedactor } from './redact.js';
import { SamplePlanner, SampleSelector, type SessionPlan } from './sampling.js';
import { summaryNeedsBody } from './summary.js';

export interface PageInput {
  /** 'last', 'all', a session id or a unique prefix. */
  session: string;
  /** Every record, also of a long session (no sampling). */
  full: boolean;
  /** Also fold each session's context cost into its plan (the header shows it). */
  tokenizer?: Tokenizer;
  /** A fresh redactor per pass (its state spans records), or null for none. */
  redactor: () => RecordRedactor | null;
  warn: (message: string) => void;
  onProgress?: (bytes: number, records: number) => void;
}

/** The records to render (redacted as asked) and the plan of each session. */
export async function sessionPageRecords(path: string, input: PageInput): Promise<{ kept: LogRecord[]; plans: SessionPlan[] }> {
  const ids = (await resolveSession(path, input.session)).map((s) => s.id);
  const one = input.session !== 'all';
  const progress = input.onProgress ? { onProgress: input.onProgress } : {};
  // pass 1: summaries (of redacted records: the header shows command lines and client info), with the lenses' notes
  const planner = new SamplePlanner(input.full, input.tokenizer);
  const r1 = input.redactor();
  const cost = input.tokenizer !== undefined;
  const needsBody = (h: LogRecord) => summaryNeedsBody(h) || (cost && contextNeedsBody(h)) || SamplePlanner.needsBody(h);
  for await (const r of readSession(path, one ? ids[0]! : 'all', { resolved: one, needsBody, ...progress, stage: lensStage() })) planner.add(r1 ? r1.next(r) : r);
  const plans = planner.finish();
  // pass 2: the records to show, bodies parsed only for them; stderr always goes through the redactor (its state spans lines)
  const selector = new SampleSelector(plans);
  const redactor = input.redactor();
  const read = await openInput({ file: path, session: one ? ids[0]! : 'all', resolved: one, warn: input.warn, needsBody: (h) => selector.needsBody(h), ...progress });
  const kept: LogRecord[] = [];
  for await (const r of read.records) {
    const keep = selector.take(r);
    if (r.kind === 'stderr' && redactor) {
      const red = redactor.next(r);
      if (keep) kept.push(red);
    } else if (keep) kept.push(redactor ? redactor.next(r) : r);
  }
  return { kept, plans };
}
