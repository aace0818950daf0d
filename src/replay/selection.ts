/**
 * What `--seq`/`--only` choose in a recorded session: the handshake (the recorded initialize and
 * initialized, or the first server/discover of the 2026-07-28 form) and the chosen client requests. The
 * chosen requests are walked from the session's index each time they are asked for, never listed, so a
 * selection of 100,000 calls costs no more memory than one; a selection that names nothing, or only
 * requests the log shortened, is an InputError saying why.
 */
import { InputError } from '../errors.js';
import { indexOfSeq, type RecMsg, type RecordedSession } from './recorded.js';
import { NO_MESSAGE, recordLargerAdvice, replayable } from './shortened.js';

export interface Selection {
  /** Replay only the client request with this seq (or the request that the answer with this seq answers). */
  seq?: number;
  /** Replay only the client requests with this method or this target (tool, prompt, resource uri). */
  only?: string;
}

/** The handshake and the chosen requests of a selection. */
export interface Chosen {
  /** The handshake's messages, in order. */
  handshake: RecMsg[];
  /** The chosen requests in the order they are replayed (the handshake's left out): a fresh walk on each call. */
  calls(): Iterable<RecMsg>;
  /** Whether `m` is one of calls(). */
  has(m: RecMsg): boolean;
}

const isClientRequest = (m: RecMsg): boolean => m.from === 'client' && m.kind === 'request';

/** The first message of the session that `test` accepts. */
function first(s: RecordedSession, test: (m: RecMsg) => boolean): RecMsg | undefined {
  for (const m of s.messages) if (test(m)) return m;
  return undefined;
}

function handshakeOf(s: RecordedSession): RecMsg[] {
  const init = first(s, (m) => isClientRequest(m) && m.method === 'initialize');
  if (init) {
    const initialized = first(s, (m) => m.from === 'client' && m.kind === 'notification' && m.method === 'notifications/initialized' && m.seq > init.seq);
    return initialized ? [init, initialized] : [init];
  }
  const discover = first(s, (m) => isClientRequest(m) && m.method === 'server/discover');
  return discover ? [discover] : [];
}

function describeRecord(s: RecordedSession, seq: number): string {
  const at = indexOfSeq(s.messages, seq);
  if (at < 0) return `there is no JSON-RPC message with seq ${seq} in session ${s.id}`;
  const m = s.messages[at]!;
  return `#${seq} is ${m.kind === 'invalid' ? 'an invalid line' : `a ${m.kind}`} from the ${m.from}${m.method ? ` (${m.method})` : ''}`;
}

/** The first dozen methods and targets of the client's requests, for an error message. */
function available(s: RecordedSession): string {
  const names = new Set<string>();
  for (const m of s.messages) {
    if (!isClientRequest(m) || !m.method) continue;
    names.add(m.target !== undefined ? `${m.method} ${m.target}` : m.method);
    if (names.size > 12) break;
  }
  const list = [...names];
  return list.length === 0 ? 'the session has no client requests' : `recorded: ${list.slice(0, 12).join(', ')}${list.length > 12 ? ', …' : ''}`;
}

/** The messages recorded with `seq` (one, or the elements of a batch). */
function recordAt(s: RecordedSession, seq: number): RecMsg[] {
  const out: RecMsg[] = [];
  const ms = s.messages;
  for (let i = Math.max(0, indexOfSeq(ms, seq)); i < ms.length && ms[i]!.seq === seq; i++) out.push(ms[i]!);
  return out;
}

/** `--seq`: the client requests of that record, or those its answers answer. */
function bySeq(s: RecordedSession, seq: number): RecMsg[] {
  const at = recordAt(s, seq);
  const reqs = at.filter(isClientRequest);
  if (reqs.length > 0) return reqs;
  const answers = at.filter((m) => m.from === 'server' && (m.kind === 'response' || m.kind === 'error') && m.reqSeq !== undefined);
  const answered = answers.map((a) => recordAt(s, a.reqSeq!).find((r) => isClientRequest(r) && s.answerOf(r) === a)).filter((r): r is RecMsg => r !== undefined);
  if (answered.length === 0) throw new InputError(`--seq ${seq}: ${describeRecord(s, seq)}; --seq takes the seq of a client request or of its answer`);
  return answered;
}

/** Refuses a selection whose every chosen request the log shortened or lost (nothing could be replayed). */
function refuseAllShortened(chosen: Chosen, sel: Selection): void {
  let count = 0;
  let head: RecMsg | undefined;
  let maxBytes = 0;
  for (const m of chosen.calls()) {
    if (replayable(m)) return;
    count++;
    head ??= m;
    maxBytes = Math.max(maxBytes, m.bytes ?? 0);
  }
  if (head === undefined) return;
  const what = sel.seq !== undefined ? `--seq ${sel.seq}` : `--only ${JSON.stringify(sel.only)}`;
  if (!head.truncated) throw new InputError(`${what}: the log's record of request #${head.seq} ${NO_MESSAGE}`);
  throw new InputError(
    `${what}: the log holds only a shortened copy of request #${head.seq}${head.bytes !== undefined ? ` (${head.bytes} bytes)` : ''}${count > 1 ? ` and ${count - 1} more` : ''}, so it cannot be replayed exactly; ${recordLargerAdvice(maxBytes || undefined)}`,
  );
}

/** The handshake and the requests `sel` chooses; throws InputError when it names nothing replayable. */
export function choose(s: RecordedSession, sel: Selection): Chosen {
  const handshake = handshakeOf(s);
  let chosen: Chosen;
  if (sel.seq !== undefined) {
    const list = bySeq(s, sel.seq).filter((m) => !handshake.includes(m));
    chosen = { handshake, calls: () => list, has: (m) => list.includes(m) };
  } else {
    const only = sel.only!;
    const named = (m: RecMsg): boolean => isClientRequest(m) && (m.method === only || m.target === only);
    if (first(s, named) === undefined) throw new InputError(`--only ${JSON.stringify(only)}: no client request with that method or tool in session ${s.id} (${available(s)})`);
    const has = (m: RecMsg): boolean => named(m) && !handshake.includes(m);
    chosen = {
      handshake,
      has,
      *calls() {
        for (const m of s.messages) if (has(m)) yield m;
      },
    };
  }
  refuseAllShortened(chosen, sel);
  return chosen;
}
