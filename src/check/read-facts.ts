/**
 * The I/O edge between a log file and the gatherer: picks the session (by id, 'last', or the mcp-tap
 * process that wrote it) and streams its records, with their line numbers, through read-log.ts, with
 * the lenses' notes merged in.
 */
import type { LensKind } from '../lens/lens.js';
import { lensStage } from '../lens/lenses.js';
import { readRecords, TORN_LAST_LINE } from '../log/read-log.js';
import { onlySession, resolveSession } from '../log/read-session.js';
import type { LogRecord } from '../log/record.js';
import { gatherNeedsBody, SessionGatherer } from './gather.js';
import type { GatherBound, SessionFacts } from './facts.js';

/** Which session to read. */
export interface FactsChoice {
  /** 'last' (default), a session id or a unique prefix. */
  session?: string;
  /** Pick the last session whose start event names this mcp-tap pid (check --run); falls back to `session`. */
  tapPid?: number;
  /** Told once about lines that are not records (a torn last line is not worth a word). */
  warn?: (message: string) => void;
  /** Told the bytes and records read so far (progress lines). */
  onProgress?: (bytes: number, records: number) => void;
  /** Keep a bounded list of requests (check, audit; BASELINE_BOUND for baseline and diff); without it every request is kept (check --run). */
  bound?: GatherBound;
  /** The lenses whose notes become facts beside the log's own (default: every lens, src/lens/lenses.ts). */
  lenses?: readonly LensKind[];
  /** Told every record of the session after the lenses, with the bodies it asks for (the context-cost fold). */
  fold?: { needsBody: (head: LogRecord) => boolean; add: (record: LogRecord, line: number) => void };
  /** Each record of the session passes through this after the lenses, before the fold and the facts (`mcp-tap mcp` redacts here). */
  transform?: (record: LogRecord) => LogRecord;
}

/** The id of the last session started by the mcp-tap process `pid`, or undefined. */
async function sessionOfPid(path: string, pid: number): Promise<string | undefined> {
  let found: string | undefined;
  for await (const item of readRecords(path, { needsBody: () => false })) {
    if (!('record' in item)) continue;
    const r = item.record;
    if (r.kind === 'event' && r.event === 'start' && r['pid'] === pid) found = r.session;
  }
  return found;
}

/** The facts of one session of `path`. Throws LogNotUsable for a missing file, a non-log or an unknown session. */
export async function readFacts(path: string, choice: FactsChoice = {}): Promise<SessionFacts> {
  let id = choice.tapPid !== undefined ? await sessionOfPid(path, choice.tapPid) : undefined;
  if (id === undefined) {
    const [s] = await resolveSession(path, choice.session ?? 'last');
    id = s!.id;
  }
  const g = new SessionGatherer(path, id, choice.bound);
  const fold = choice.fold;
  const needsBody = fold ? (head: LogRecord) => gatherNeedsBody(head) || (head.session === id && fold.needsBody(head)) : gatherNeedsBody;
  let skipped = 0;
  let firstWhy = '';
  const stage = onlySession(lensStage(choice.lenses), id);
  for await (const item of readRecords(path, { needsBody, stage, ...(choice.onProgress ? { onProgress: choice.onProgress } : {}) })) {
    if ('record' in item) {
      if (item.record.session === id) {
        const it = choice.transform ? { record: choice.transform(item.record), line: item.line } : item;
        fold?.add(it.record, it.line);
        g.add(it);
      }
      continue;
    }
    if (item.warning === TORN_LAST_LINE) continue;
    if (skipped++ === 0) firstWhy = `line ${item.line}: ${item.warning}`;
  }
  if (skipped > 0) choice.warn?.(`skipped ${skipped} line${skipped === 1 ? '' : 's'} of ${path} that ${skipped === 1 ? 'is' : 'are'} not records (${firstWhy})`);
  return g.finish();
}
