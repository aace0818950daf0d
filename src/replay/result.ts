/** What a replay found: one entry per recorded exchange (or per surprise), and the totals that decide the exit status. */
import type { JsonRpcId } from '../log/record.js';
import type { Difference } from './compare.js';
import type { RecMsg } from './recorded.js';

/**
 * same / different: the answer (or the server's request) compared with the recorded one.
 * missing: no answer within the time allowed (or the server never made a recorded request).
 * not-replayed: the log holds only a shortened copy of the client's message.
 * unexpected: the server asked something the recording has no answer for.
 * unanswered: no answer, and the recording had none either. answered: an answer the recording did not have.
 */
export type EntryStatus = 'same' | 'different' | 'missing' | 'not-replayed' | 'unexpected' | 'unanswered' | 'answered';

export interface ReplayEntry {
  /** answer: a client request and the server's answer; server-request: the server asked the client; stdout: lines that were not JSON-RPC. */
  type: 'answer' | 'server-request' | 'notification' | 'stdout';
  status: EntryStatus;
  /** Counts toward exit status 1. */
  failed: boolean;
  /** seq of the recorded request (or message). */
  seq?: number;
  /** seq of the recorded answer. */
  answerSeq?: number;
  method?: string;
  target?: string;
  /** The id in the recording. */
  id?: JsonRpcId;
  /** The id on the wire in this replay (ours for client requests, the server's for its requests). */
  liveId?: JsonRpcId;
  /** Latency in this replay and in the recording (ms). */
  ms?: number;
  recordedMs?: number;
  differences?: Difference[];
  /** Differences found beyond the ones the entry keeps (report-rows.ts: KEPT_DIFFERENCES). */
  moreDifferences?: number;
  /** Differences left out as volatile or by --ignore. */
  ignored?: number;
  /** The recorded copy was shortened: compared as far as the log shows. */
  partial?: boolean;
  notes: string[];
}

/** The method, target and recorded id of a recorded message, as its report entry carries them. */
export function entryFields(m: RecMsg): Pick<ReplayEntry, 'method' | 'target' | 'id'> {
  const d: Pick<ReplayEntry, 'method' | 'target' | 'id'> = {};
  if (m.method !== undefined) d.method = m.method;
  if (m.target !== undefined) d.target = m.target;
  if (m.id !== undefined) d.id = m.id;
  return d;
}

export interface ReplaySummary {
  same: number;
  different: number;
  missing: number;
  unexpected: number;
  notReplayed: number;
  /** Entries that do not count either way (unanswered as recorded, cancelled in the recording, …). */
  other: number;
}

export interface ReplayResult {
  session: string;
  mode: 'all' | 'selected';
  /** The entries listed: all of them, or in a long replay the first ones (report-rows.ts); `summary` counts every one. */
  entries: ReplayEntry[];
  summary: ReplaySummary;
  /** Present when entries were left out of `entries`: how many, counted as `summary` counts them. */
  notListed?: ReplaySummary;
  notifications: { recorded: Record<string, number>; replayed: Record<string, number> };
  stdoutNoise: { recorded: number; replayed: number; samples: string[] };
  /** Answers whose id the replay never sent. */
  strayAnswers: number;
  /** Pings from the server, answered with an empty result. */
  serverPings: number;
  serverExit?: { code: number | null; signal: string | null; early: boolean };
  failed: boolean;
}

/** Totals of nothing yet. */
export function emptySummary(): ReplaySummary {
  return { same: 0, different: 0, missing: 0, unexpected: 0, notReplayed: 0, other: 0 };
}

/** Counts one entry into `s`. */
export function countEntry(s: ReplaySummary, e: ReplayEntry): void {
  if (!e.failed && e.status !== 'same' && e.status !== 'not-replayed') {
    s.other++;
    return;
  }
  if (e.status === 'same') s.same++;
  else if (e.status === 'different') s.different++;
  else if (e.status === 'missing') s.missing++;
  else if (e.status === 'unexpected') s.unexpected++;
  else if (e.status === 'not-replayed') s.notReplayed++;
}
