/**
 * What a replay sends, in which order, and what it waits for. The client's side of the recording is cut
 * into lines to send (a recorded batch stays one line); before each line the replay waits for the
 * answers the original client had received before it sent that line — where the client waited the
 * replay waits, where it pipelined the replay pipelines. The client's answers to the server's requests
 * are not sent in order: they go into a book and answer the live server's requests as they come.
 * `--seq`/`--only` keep the handshake and the chosen calls (selection.ts), one after the other. Either
 * way the lines are made as the replay asks for them, from the session's index, in one walk.
 */
import type { BookEntry } from './answer-book.js';
import { idKey, indexOfSeq, type RecMsg, type RecordedSession } from './recorded.js';
import { choose, type Chosen, type Selection } from './selection.js';
import { replayable } from './shortened.js';

export type { Selection } from './selection.js';

/** One line the replay sends. */
export interface SendUnit {
  /** seq of the record that carried the line. */
  seq: number;
  /** The client messages of the line: one, or the elements of a recorded batch. */
  items: RecMsg[];
  batch: boolean;
  /** Client requests whose answers must be in (or given up on) before this line is sent (one at most for a selection). */
  waitFor: RecMsg[];
}

/** One step of the plan: a line to send, or client messages the log shortened (they cannot be sent as they were). */
export type PlanStep = { send: SendUnit } | { notReplayed: RecMsg[] };

export interface ReplayPlan {
  session: RecordedSession;
  mode: 'all' | 'selected';
  /**
   * The steps in order, each made when it is asked for: the session (or the selection) is walked through
   * its index as the replay goes, not held as a list of lines (memory stays bounded whatever it holds).
   */
  steps(): Iterator<PlanStep>;
  /** The server's recorded requests with the client's recorded answers. */
  serverBook: BookEntry[];
  /** Recorded server requests the replay expects the server to make again. */
  expectedServerRequests: RecMsg[];
  /** Lines the server wrote on stdout that were not JSON-RPC, in the recording. */
  recordedStdoutNoise: number;
  /** Server notifications in the recording, by method (for the report). */
  recordedNotifications: Record<string, number>;
}

const isClientSend = (m: RecMsg): boolean =>
  m.from === 'client' && (m.kind === 'request' || m.kind === 'notification' || m.kind === 'invalid');

/** The lines a plan sends, all made (for tests and small selections). */
export function planUnits(plan: ReplayPlan): SendUnit[] {
  const units: SendUnit[] = [];
  const it = plan.steps();
  for (let r = it.next(); !r.done; r = it.next()) if ('send' in r.value) units.push(r.value.send);
  return units;
}

/** The client request that the server message at `at` answers in the recording, if it is such an answer. */
function requestAnswered(s: RecordedSession, m: RecMsg, at: number): RecMsg | undefined {
  if ((m.kind !== 'response' && m.kind !== 'error') || m.id === undefined || m.id === null) return undefined;
  const ms = s.messages;
  if (m.reqSeq !== undefined) {
    const i = indexOfSeq(ms, m.reqSeq);
    if (i < 0) return undefined;
    for (let j = i; j < ms.length && ms[j]!.seq === m.reqSeq; j++) {
      const q = ms[j]!;
      if (q.from === 'client' && q.kind === 'request' && s.answerOf(q) === m) return q;
    }
    return undefined;
  }
  // a log written before pairing: the request is an earlier one with the same id
  const k = idKey(m.id);
  for (let j = at - 1; j >= 0; j--) {
    const q = ms[j]!;
    if (q.from === 'client' && q.kind === 'request' && idKey(q.id) === k && s.answerOf(q) === m) return q;
  }
  return undefined;
}

function book(s: RecordedSession): BookEntry[] {
  return s.messages.filter((m) => m.from === 'server' && m.kind === 'request').map((request) => ({ request, answer: s.answerOf(request), used: 0 }));
}

/**
 * The server's requests, notifications and stdout noise in the recording: all of them, or (given the
 * chosen calls) those made while a chosen call was in flight — after it, before its answer. One walk in
 * seq order, keeping only where the latest window seen so far ends.
 */
function serverSide(s: RecordedSession, chosen?: (m: RecMsg) => boolean): Pick<ReplayPlan, 'expectedServerRequests' | 'recordedStdoutNoise' | 'recordedNotifications'> {
  const ms = s.messages;
  const expectedServerRequests: RecMsg[] = [];
  const notifications: Record<string, number> = {};
  let noise = 0;
  // messages with a lower seq are inside the window of a chosen call of an earlier record
  let until = chosen ? -Infinity : Infinity;
  let i = 0;
  while (i < ms.length) {
    const seq = ms[i]!.seq;
    let end = i;
    for (; end < ms.length && ms[end]!.seq === seq; end++) {
      const m = ms[end]!;
      if (m.from !== 'server' || seq >= until) continue;
      if (m.kind === 'request') expectedServerRequests.push(m);
      if (m.kind === 'invalid') noise++;
      if (m.kind === 'notification' && m.method) notifications[m.method] = (notifications[m.method] ?? 0) + 1;
    }
    if (chosen) for (let k = i; k < end; k++) if (chosen(ms[k]!)) until = Math.max(until, s.answerOf(ms[k]!)?.seq ?? seq);
    i = end;
  }
  return { expectedServerRequests, recordedStdoutNoise: noise, recordedNotifications: notifications };
}

/**
 * The client's lines in recorded order (single messages and recorded batches, client answers left out),
 * each waiting for the answers recorded since the line before it; made one at a time from the index.
 */
function* linesOf(s: RecordedSession): Generator<PlanStep> {
  const ms = s.messages;
  let answered: RecMsg[] = [];
  let i = 0;
  while (i < ms.length) {
    // one record: a message, or the elements of a batch
    const seq = ms[i]!.seq;
    const items: RecMsg[] = [];
    for (; i < ms.length && ms[i]!.seq === seq; i++) {
      const m = ms[i]!;
      if (m.from === 'server') {
        const req = requestAnswered(s, m, i);
        if (req && !s.cancelled.has(req)) answered.push(req);
      } else if (isClientSend(m)) items.push(m);
    }
    if (items.length === 0) continue;
    if (!items.every(replayable)) {
      yield { notReplayed: items };
      continue; // what it would have waited for, the next line waits for
    }
    yield { send: { seq, items, batch: items[0]!.batchSize !== undefined, waitFor: answered } };
    answered = [];
  }
}

/**
 * The handshake and the chosen requests, one after the other. Each waits for the request sent before it
 * that the recording answered, which had itself waited for the one before it: one request each, however
 * many are chosen.
 */
function* selectedLines(s: RecordedSession, chosen: Chosen): Generator<PlanStep> {
  let last: RecMsg | undefined;
  for (const part of [chosen.handshake, chosen.calls()]) {
    for (const m of part) {
      if (!replayable(m)) {
        yield { notReplayed: [m] };
        continue;
      }
      yield { send: { seq: m.seq, items: [m], batch: false, waitFor: last ? [last] : [] } };
      // a request the recording has no answer to is not waited for
      if (m.kind === 'request' && s.answerOf(m) !== undefined) last = m;
    }
  }
}

/** Plans the replay of a recorded session (all of it, or the handshake and the selected calls). */
export function planReplay(s: RecordedSession, sel: Selection = {}): ReplayPlan {
  const chosen = sel.seq !== undefined || sel.only !== undefined ? choose(s, sel) : undefined;
  return {
    session: s,
    mode: chosen ? 'selected' : 'all',
    steps: () => (chosen ? selectedLines(s, chosen) : linesOf(s)),
    serverBook: book(s),
    ...serverSide(s, chosen?.has),
  };
}
