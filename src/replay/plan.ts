/**
 * What a replay sends, in which order, and what it waits for. The client's side of the recording is cut
 * into lines to send (a recorded batch stays one line); before each line the replay waits for the
 * answers the original client had received before it sent that line — where the client waited the
 * replay waits, where it pipelined the replay pipelines. The client's answers to the server's requests
 * are not sent in order: they go into a book and answer the live server's requests as they come.
 * `--seq`/`--only` keep the handshake (recorded initialize + initialized, or the first server/discover of
 * the 2026-07-28 form) and the chosen calls, one after the other.
 */
import { InputError } from '../errors.js';
import type { BookEntry } from './answer-book.js';
import { hasMarkers, recordLargerAdvice } from './shortened.js';
import { idKey, type RecMsg, type RecordedSession } from './recorded.js';

/** One line the replay sends. */
export interface SendUnit {
  /** seq of the record that carried the line. */
  seq: number;
  /** The client messages of the line: one, or the elements of a recorded batch. */
  items: RecMsg[];
  batch: boolean;
  /** Client requests whose answers must be in (or given up on) before this line is sent. */
  waitFor: RecMsg[];
}

/** One step of the plan: a line to send, or client messages the log shortened (they cannot be sent as they were). */
export type PlanStep = { send: SendUnit } | { notReplayed: RecMsg[] };

export interface ReplayPlan {
  session: RecordedSession;
  mode: 'all' | 'selected';
  /**
   * The steps in order, each made when it is asked for: a whole session is walked through its index as
   * the replay goes, not held as a list of lines (memory stays bounded whatever the session holds).
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

export interface Selection {
  /** Replay only the client request with this seq (or the request that the answer with this seq answers). */
  seq?: number;
  /** Replay only the client requests with this method or this target (tool, prompt, resource uri). */
  only?: string;
}

const isClientSend = (m: RecMsg): boolean =>
  m.from === 'client' && (m.kind === 'request' || m.kind === 'notification' || m.kind === 'invalid');

/** A message can be sent as it was: the log kept it whole (or at least this element of a shortened batch). */
export function replayable(m: RecMsg): boolean {
  if (m.kind === 'invalid') return m.raw !== undefined ? !m.truncated : m.msg !== undefined && !m.truncated;
  if (m.msg === undefined) return false;
  if (!m.truncated) return true;
  return m.batchSize !== undefined && !hasMarkers(m.msg);
}

/** The lines a plan sends, all made (for tests and small selections). */
export function planUnits(plan: ReplayPlan): SendUnit[] {
  const units: SendUnit[] = [];
  const it = plan.steps();
  for (let r = it.next(); !r.done; r = it.next()) if ('send' in r.value) units.push(r.value.send);
  return units;
}

/** Index of the first message with this seq (messages are sorted by seq), or -1. */
function firstAt(ms: readonly RecMsg[], seq: number): number {
  let lo = 0;
  let hi = ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ms[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo < ms.length && ms[lo]!.seq === seq ? lo : -1;
}

/** The client request that the server message at `at` answers in the recording, if it is such an answer. */
function requestAnswered(s: RecordedSession, m: RecMsg, at: number): RecMsg | undefined {
  if ((m.kind !== 'response' && m.kind !== 'error') || m.id === undefined || m.id === null) return undefined;
  const ms = s.messages;
  if (m.reqSeq !== undefined) {
    const i = firstAt(ms, m.reqSeq);
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

/** Server notifications and stdout noise in the recording (within `inside`, for selected calls). */
function counts(s: RecordedSession, inside: (m: RecMsg) => boolean): { noise: number; notifications: Record<string, number> } {
  let noise = 0;
  const notifications: Record<string, number> = {};
  for (const m of s.messages) {
    if (m.from !== 'server' || !inside(m)) continue;
    if (m.kind === 'invalid') noise++;
    if (m.kind === 'notification' && m.method) notifications[m.method] = (notifications[m.method] ?? 0) + 1;
  }
  return { noise, notifications };
}

type Part = Pick<ReplayPlan, 'steps' | 'expectedServerRequests'> & { inside: (m: RecMsg) => boolean };

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

/** The whole session: every client line in order, each waiting for the answers recorded before it. */
function planAll(s: RecordedSession): Part {
  const expectedServerRequests = s.messages.filter((m) => m.from === 'server' && m.kind === 'request');
  return { steps: () => linesOf(s), expectedServerRequests, inside: () => true };
}

function describeRecord(s: RecordedSession, seq: number): string {
  const m = s.messages.find((x) => x.seq === seq);
  if (!m) return `there is no JSON-RPC message with seq ${seq} in session ${s.id}`;
  return `#${seq} is ${m.kind === 'invalid' ? 'an invalid line' : `a ${m.kind}`} from the ${m.from}${m.method ? ` (${m.method})` : ''}`;
}

function available(s: RecordedSession): string {
  const names = new Set<string>();
  for (const m of s.messages) {
    if (m.from !== 'client' || m.kind !== 'request' || !m.method) continue;
    names.add(m.target !== undefined ? `${m.method} ${m.target}` : m.method);
  }
  const list = [...names];
  return list.length === 0 ? 'the session has no client requests' : `recorded: ${list.slice(0, 12).join(', ')}${list.length > 12 ? ', …' : ''}`;
}

/** The handshake and the chosen requests, one at a time. */
function planSelected(s: RecordedSession, sel: Selection): Part {
  const requests = s.messages.filter((m) => m.from === 'client' && m.kind === 'request');
  const init = requests.find((m) => m.method === 'initialize');
  const handshake: RecMsg[] = [];
  if (init) {
    handshake.push(init);
    const initialized = s.messages.find((m) => m.from === 'client' && m.kind === 'notification' && m.method === 'notifications/initialized' && m.seq > init.seq);
    if (initialized) handshake.push(initialized);
  } else {
    const discover = requests.find((m) => m.method === 'server/discover');
    if (discover) handshake.push(discover);
  }

  let chosen: RecMsg[];
  if (sel.seq !== undefined) {
    const at = s.messages.filter((m) => m.seq === sel.seq);
    let reqs = at.filter((m) => m.from === 'client' && m.kind === 'request');
    if (reqs.length === 0) {
      const answers = at.filter((m) => m.from === 'server' && (m.kind === 'response' || m.kind === 'error') && m.reqSeq !== undefined);
      reqs = answers.map((a) => requests.find((r) => r.seq === a.reqSeq && s.answerOf(r) === a)).filter((r): r is RecMsg => r !== undefined);
    }
    if (reqs.length === 0) throw new InputError(`--seq ${sel.seq}: ${describeRecord(s, sel.seq)}; --seq takes the seq of a client request or of its answer`);
    chosen = reqs;
  } else {
    const only = sel.only!;
    chosen = requests.filter((m) => m.method === only || m.target === only);
    if (chosen.length === 0) throw new InputError(`--only ${JSON.stringify(only)}: no client request with that method or tool in session ${s.id} (${available(s)})`);
  }
  chosen = chosen.filter((m) => !handshake.includes(m));
  const blocked = chosen.filter((m) => !replayable(m));
  if (chosen.length > 0 && blocked.length === chosen.length) {
    const m = blocked[0]!;
    const what = sel.seq !== undefined ? `--seq ${sel.seq}` : `--only ${JSON.stringify(sel.only)}`;
    throw new InputError(
      `${what}: the log holds only a shortened copy of request #${m.seq}${m.bytes !== undefined ? ` (${m.bytes} bytes)` : ''}${blocked.length > 1 ? ` and ${blocked.length - 1} more` : ''}, so it cannot be replayed exactly; ${recordLargerAdvice(Math.max(...blocked.map((b) => b.bytes ?? 0)) || undefined)}`,
    );
  }

  const steps: PlanStep[] = [];
  const sentRequests: RecMsg[] = [];
  for (const m of [...handshake, ...chosen]) {
    if (!replayable(m)) {
      steps.push({ notReplayed: [m] });
      continue;
    }
    steps.push({ send: { seq: m.seq, items: [m], batch: false, waitFor: [...sentRequests] } });
    // one after the other; a request the recording has no answer to is not waited for
    if (m.kind === 'request' && s.answerOf(m) !== undefined) sentRequests.push(m);
  }
  // what the server did while a chosen call was in flight is what it should do again
  const windows = chosen.map((r) => [r.seq, s.answerOf(r)?.seq ?? r.seq] as const);
  const inside = (m: RecMsg): boolean => windows.some(([lo, hi]) => m.seq > lo && m.seq < hi);
  const expectedServerRequests = s.messages.filter((m) => m.from === 'server' && m.kind === 'request' && inside(m));
  return { steps: () => steps[Symbol.iterator](), expectedServerRequests, inside };
}

/** Plans the replay of a recorded session (all of it, or the handshake and the selected calls). */
export function planReplay(s: RecordedSession, sel: Selection = {}): ReplayPlan {
  const selected = sel.seq !== undefined || sel.only !== undefined;
  const { inside, ...part } = selected ? planSelected(s, sel) : planAll(s);
  const { noise, notifications } = counts(s, inside);
  return {
    session: s,
    mode: selected ? 'selected' : 'all',
    ...part,
    serverBook: book(s),
    recordedStdoutNoise: noise,
    recordedNotifications: notifications,
  };
}
