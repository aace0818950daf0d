/**
 * Replay planning and the replay engine, in memory: recorded sessions are built here as log records,
 * a fake server answers (or not), and a fake clock drives the deadlines.
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { InputError } from '../../src/errors.js';
import { buildSession, type RecordedSession } from '../../src/replay/recorded.js';
import { planReplay, planUnits, type Selection } from '../../src/replay/plan.js';
import { MAX_OUTSTANDING, ReplayEngine } from '../../src/replay/replay-engine.js';
import type { ReplayEntry, ReplayResult } from '../../src/replay/result.js';
import { KEPT_DIFFERENCES, KEPT_VALUE_BYTES, keptValue, LISTED_FAILURES, LISTED_OTHERS, ReportRows } from '../../src/replay/report-rows.js';
import { renderJson, renderText } from '../../src/replay/render.js';
import { makeChalk } from '../../src/view/color.js';

// ---- recorded sessions as log records (pairing filled in like the log writer does) ----

type Side = 'client' | 'server';
interface Step {
  from: Side;
  msg?: unknown;
  raw?: string;
  extra?: Partial<LogRecord>;
}
const C = (msg: unknown, extra?: Partial<LogRecord>): Step => ({ from: 'client', msg, ...(extra ? { extra } : {}) });
const S = (msg: unknown, extra?: Partial<LogRecord>): Step => ({ from: 'server', msg, ...(extra ? { extra } : {}) });

const req = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
const note = (method: string, params?: unknown) => ({ jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });
const res = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });
const err = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const call = (id: unknown, name: string, args: unknown = {}) => req(id, 'tools/call', { name, arguments: args });

function kindOf(m: Record<string, unknown>): LogRecord['kind'] {
  if (typeof m['method'] === 'string') return 'id' in m ? 'request' : 'notification';
  return 'error' in m ? 'error' : 'response';
}

function records(steps: Step[], session = 'sess-1'): LogRecord[] {
  const out: LogRecord[] = [{ v: 1, time: 1000, session, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'x', command: 'node', args: ['x.js'] }];
  const pending = new Map<string, { seq: number; time: number; method: string }>();
  let t = 1000;
  const annotate = (m: Record<string, unknown>, from: Side, seq: number, into: Record<string, unknown>): void => {
    const kind = kindOf(m);
    into['kind'] = kind;
    if ('id' in m) into['id'] = m['id'];
    const p = m['params'] as Record<string, unknown> | undefined;
    if (typeof m['method'] === 'string') {
      into['method'] = m['method'];
      if (typeof p?.['name'] === 'string') into['target'] = p['name'];
    }
    if (kind === 'request') pending.set(`${from}|${typeof m['id']}:${String(m['id'])}`, { seq, time: t, method: m['method'] as string });
    if (kind === 'response' || kind === 'error') {
      const other = from === 'client' ? 'server' : 'client';
      const k = `${other}|${typeof m['id']}:${String(m['id'])}`;
      const q = pending.get(k);
      if (q) {
        pending.delete(k);
        into['reqSeq'] = q.seq;
        into['method'] = q.method;
        into['ms'] = t - q.time;
      }
    }
  };
  for (const st of steps) {
    t += 10;
    const seq = out.length + 1;
    const r: Record<string, unknown> = { v: 1, time: t, session, seq, from: st.from };
    if (st.raw !== undefined) {
      r['kind'] = 'invalid';
      r['raw'] = st.raw;
    } else if (Array.isArray(st.msg)) {
      r['kind'] = 'batch';
      r['msg'] = st.msg;
      r['items'] = st.msg.map((el: Record<string, unknown>) => {
        const it: Record<string, unknown> = {};
        annotate(el, st.from, seq, it);
        return it;
      });
    } else {
      annotate(st.msg as Record<string, unknown>, st.from, seq, r);
      r['msg'] = st.msg;
    }
    Object.assign(r, st.extra);
    out.push(r as LogRecord);
  }
  return out;
}

const sessionOf = (steps: Step[]): RecordedSession => buildSession(records(steps));

const HANDSHAKE: Step[] = [
  C(req(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } })),
  S(res(0, { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } })),
  C(note('notifications/initialized')),
];

// ---- driving the engine ----

type Json = Record<string, unknown>;
/** A fake server: gets each message the replay sends, returns the messages it answers with. */
type FakeServer = (m: Json) => Json[];

/** A fake server that answers every request with what the recording says (optionally changed by `tweak`). */
function echoServer(s: RecordedSession, tweak: (m: Json, answer: Json) => Json = (_m, a) => a): FakeServer {
  return (m) => {
    if (!('id' in m) || typeof m['method'] !== 'string') return [];
    const rec = s.messages.find((x) => x.from === 'client' && x.kind === 'request' && x.method === m['method'] && JSON.stringify((x.msg as Json)['params']) === JSON.stringify(m['params']));
    const a = rec && s.answerOf(rec);
    if (!a) return [];
    return [tweak(m, { ...(a.msg as Json), id: m['id'] })];
  };
}

interface Driven {
  result: ReplayResult;
  sent: Json[];
  lines: string[];
  engine: ReplayEngine;
}

function drive(s: RecordedSession, server: FakeServer, opts: { sel?: Selection; timeoutMs?: number; strict?: boolean } = {}): Driven {
  let now = 0;
  const plan = planReplay(s, opts.sel ?? {});
  const engine = new ReplayEngine(plan, { timeoutMs: opts.timeoutMs ?? 1000, compare: { ignore: [], volatile: opts.strict !== true }, now: () => now });
  const queue: string[] = [...engine.start()];
  const lines: string[] = [];
  for (let guard = 0; guard < 100_000; guard++) {
    const line = queue.shift();
    if (line !== undefined) {
      lines.push(line);
      now += 1;
      const parsed = JSON.parse(line) as Json | Json[];
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        for (const reply of server(m)) queue.push(...engine.onLine(JSON.stringify(reply)));
      }
      continue;
    }
    if (engine.finished) break;
    const d = engine.nextDeadline();
    if (d === undefined) break;
    now = Math.max(now, d);
    queue.push(...engine.onTick());
  }
  const sent = lines.flatMap((l) => {
    const p = JSON.parse(l) as Json | Json[];
    return Array.isArray(p) ? p : [p];
  });
  return { result: engine.result(), sent, lines, engine };
}

const statuses = (r: ReplayResult): string[] => r.entries.map((e) => `${e.seq ?? '-'} ${e.method ?? e.type} ${e.status}`);

// ---- the model ----

describe('recorded session model', () => {
  it('flattens batches, links answers by reqSeq and keeps the start event', () => {
    const s = sessionOf([...HANDSHAKE, C([req(1, 'ping'), note('notifications/roots/list_changed')]), S([res(1, {})])]);
    expect(s.server).toMatchObject({ command: 'node', args: ['x.js'] });
    const batch = s.messages.filter((m) => m.seq === 5);
    expect(batch.map((m) => [m.kind, m.index, m.batchSize])).toEqual([
      ['request', 0, 2],
      ['notification', 1, 2],
    ]);
    expect(s.answerOf(batch[0]!)?.seq).toBe(6);
  });

  it('pairs answers without reqSeq by id, keeping the id type', () => {
    const recs = records([C(req(1, 'ping')), C(req('1', 'ping')), S(res('1', { s: true })), S(res(1, { n: true }))]).map((r) => {
      const { reqSeq: _r, ...rest } = r;
      void _r;
      return rest as LogRecord;
    });
    const s = buildSession(recs);
    const [a, b] = s.messages.filter((m) => m.kind === 'request');
    expect((s.answerOf(a!)?.msg as Json)['result']).toEqual({ n: true });
    expect((s.answerOf(b!)?.msg as Json)['result']).toEqual({ s: true });
  });

  it('knows which requests the client cancelled', () => {
    const s = sessionOf([...HANDSHAKE, C(call(1, 'slow')), C(note('notifications/cancelled', { requestId: 1 }))]);
    expect([...s.cancelled].map((m) => m.seq)).toEqual([5]);
  });
});

// ---- ordering ----

describe('ordering: wait where the client waited, pipeline where it did not', () => {
  const s = sessionOf([
    ...HANDSHAKE,
    C(call(1, 'a')),
    S(res(1, text('a'))),
    C(call(2, 'b')),
    C(call(3, 'c')),
    S(res(3, text('c'))),
    S(res(2, text('b'))),
    C(call(4, 'd')),
    S(res(4, text('d'))),
  ]);

  it('plans the waits from the recorded order', () => {
    const plan = planReplay(s);
    expect(planUnits(plan).map((u) => [u.items[0]!.method, u.items[0]!.target, u.waitFor.map((r) => r.seq)])).toEqual([
      ['initialize', undefined, []],
      ['notifications/initialized', undefined, [2]],
      ['tools/call', 'a', []],
      ['tools/call', 'b', [5]],
      ['tools/call', 'c', []],
      ['tools/call', 'd', [8, 7]], // c was answered first
    ]);
  });

  it('sends only what the recorded client had sent before each answer', () => {
    const plan = planReplay(s);
    const engine = new ReplayEngine(plan, { timeoutMs: 1000, compare: { ignore: [], volatile: true }, now: () => 0 });
    const ids = (lines: string[]) => lines.map((l) => (JSON.parse(l) as Json)['id'] ?? (JSON.parse(l) as Json)['method']);
    expect(ids(engine.start())).toEqual([0]);
    expect(ids(engine.onLine(JSON.stringify(res(0, {}))))).toEqual(['notifications/initialized', 1]);
    expect(ids(engine.onLine(JSON.stringify(res(1, text('a')))))).toEqual([2, 3]); // pipelined, as recorded
    expect(ids(engine.onLine(JSON.stringify(res(2, text('b')))))).toEqual([]); // d waits for c too
    expect(ids(engine.onLine(JSON.stringify(res(3, text('c')))))).toEqual([4]);
    expect(engine.finished).toBe(false);
    engine.onLine(JSON.stringify(res(4, text('d'))));
    expect(engine.finished).toBe(true);
    // the initialize answer differs from the recording ({}), the calls were answered as recorded
    expect(statuses(engine.result())).toEqual(['2 initialize different', '5 tools/call same', '7 tools/call same', '8 tools/call same', '11 tools/call same']);
  });

  it('reports every answer the same when the server answers as recorded', () => {
    const { result } = drive(s, echoServer(s));
    expect(result.failed).toBe(false);
    expect(result.summary).toMatchObject({ same: 5, different: 0, missing: 0 });
  });
});

// ---- comparison ----

describe('comparing answers', () => {
  const s = sessionOf([...HANDSHAKE, C(call(1, 'add', { a: 2, b: 3 })), S(res(1, { ...text('5'), structuredContent: { sum: 5 } })), C(call(2, 'fail')), S(err(2, -32602, 'Unknown tool'))]);

  it('reports a changed answer with its paths and fails', () => {
    const { result } = drive(s, echoServer(s, (m, a) => ((m['params'] as Json)['name'] === 'add' ? { ...a, result: { ...text('6'), structuredContent: { sum: 6 } } } : a)));
    const e = result.entries.find((x) => x.target === 'add')!;
    expect(e.status).toBe('different');
    expect(e.differences!.map((d) => d.path)).toEqual(['result.content[0].text', 'result.structuredContent.sum']);
    expect(result.failed).toBe(true);
    expect(result.summary.different).toBe(1);
  });

  it('reports an error that became a result (and the other way round)', () => {
    const { result } = drive(s, echoServer(s, (m, a) => ((m['params'] as Json)['name'] === 'fail' ? { jsonrpc: '2.0', id: m['id'], result: text('ok') } : a)));
    const e = result.entries.find((x) => x.target === 'fail')!;
    expect(e.differences!.map((d) => [d.path, d.op])).toEqual([
      ['error', 'removed'],
      ['result', 'added'],
    ]);
  });

  it('reports a missing answer after the timeout, then goes on', () => {
    const { result, sent } = drive(s, echoServer(s, (m, a) => ((m['params'] as Json | undefined)?.['name'] === 'add' ? ({ skip: true } as Json) : a)), { timeoutMs: 500 });
    const e = result.entries.find((x) => x.target === 'add')!;
    expect(e.status).toBe('missing');
    expect(e.notes.join()).toContain('no answer within 500 ms');
    expect(sent.some((m) => (m['params'] as Json | undefined)?.['name'] === 'fail')).toBe(true);
    expect(result.failed).toBe(true);
  });

  it('waits twice the recorded latency for a request that was slow in the recording', () => {
    const slow = sessionOf([...HANDSHAKE, C(call(1, 'slow')), S(res(1, text('done')), { ms: 4000 })]);
    const { result } = drive(slow, () => [], { timeoutMs: 100 });
    expect(result.entries.find((x) => x.target === 'slow')!.notes.join()).toContain('no answer within 8000 ms');
  });

  it('applies --strict: volatile fields count', () => {
    const t = sessionOf([...HANDSHAKE, C(call(1, 'now')), S(res(1, { ...text('at 2026-01-01T00:00:00Z'), _meta: { run: 1 } }))]);
    const tweak = (m: Json, a: Json): Json => ((m['params'] as Json | undefined)?.['name'] === 'now' ? { ...a, result: { ...text('at 2026-02-02T00:00:00Z'), _meta: { run: 2 } } } : a);
    expect(drive(t, echoServer(t, tweak)).result.failed).toBe(false);
    expect(drive(t, echoServer(t, tweak)).result.entries.find((e) => e.target === 'now')!.ignored).toBe(2);
    expect(drive(t, echoServer(t, tweak), { strict: true }).result.failed).toBe(true);
  });
});

// ---- ids ----

describe('ids', () => {
  it('sends the recorded ids, with their types', () => {
    const s = sessionOf([...HANDSHAKE, C(call('1', 'a')), S(res('1', text('a'))), C(call(1, 'b')), S(res(1, text('b')))]);
    const { sent, result } = drive(s, echoServer(s));
    expect(sent.filter((m) => m['method'] === 'tools/call').map((m) => m['id'])).toEqual(['1', 1]);
    expect(result.failed).toBe(false);
  });

  it('remaps an id still awaiting its answer, and a cancel follows the request it meant', () => {
    // the recorded first request was never answered; its id is reused later, then a cancel of 7 (the
    // one still pending: 'hang') and later of the reused one
    const s = sessionOf([
      ...HANDSHAKE,
      C(call(7, 'hang')),
      C(call(7, 'b')),
      C(note('notifications/cancelled', { requestId: 7 })),
      S(res(7, text('b'))),
      C(call(8, 'c')),
      C(note('notifications/cancelled', { requestId: 7 })),
    ]);
    expect([...s.cancelled].map((m) => m.target)).toEqual(['b', 'hang']);
    const server: FakeServer = (m) => {
      const name = (m['params'] as Json | undefined)?.['name'];
      if (name === 'b') return [res(m['id'], text('b'))];
      if (name === 'c') return [res(m['id'], {})];
      if (m['method'] === 'initialize') return [res(m['id'], (s.answerOf(s.messages[0]!)!.msg as Json)['result'])];
      return [];
    };
    const { sent, result } = drive(s, server);
    const calls = sent.filter((m) => m['method'] === 'tools/call');
    const fresh = calls[1]!['id'];
    expect(typeof fresh).toBe('number');
    expect(calls.map((m) => m['id'])).toEqual([7, fresh, 8]);
    expect(fresh).toBeGreaterThan(1000); // clear of every id in the recording
    const cancels = sent.filter((m) => m['method'] === 'notifications/cancelled').map((m) => (m['params'] as Json)['requestId']);
    expect(cancels).toEqual([fresh, 7]);
    const b = result.entries.find((e) => e.target === 'b')!;
    expect(b).toMatchObject({ status: 'same', id: 7, liveId: fresh });
    expect(b.notes.join()).toContain('id 7 was still awaiting its answer');
    // the never-answered request: no answer now either, which is not a failure
    expect(result.entries.find((e) => e.target === 'hang')).toMatchObject({ status: 'unanswered', failed: false });
  });

  it('counts answers to ids it never sent', () => {
    const s = sessionOf([...HANDSHAKE]);
    const { result } = drive(s, (m) => (m['method'] === 'initialize' ? [res(0, (s.answerOf(s.messages[0]!)!.msg as Json)['result']), res(99, {})] : []));
    expect(result.strayAnswers).toBe(1);
  });
});

// ---- the server's requests ----

describe("the server's requests during a replay", () => {
  const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'q?' } }], maxTokens: 10 };
  const canned = { model: 'm', role: 'assistant', content: { type: 'text', text: 'CANNED' } };
  const s = sessionOf([
    ...HANDSHAKE,
    C(call(1, 'ask')),
    S(req('srv-1', 'sampling/createMessage', sampling)),
    C(res('srv-1', canned)),
    S(res(1, text('the client said: CANNED'))),
  ]);

  /** A server that asks the client under its own id and answers the call with what it got. */
  const asking =
    (params: unknown, method = 'sampling/createMessage'): FakeServer =>
    (m) => {
      if (m['method'] === 'initialize') return [res(m['id'], (s.answerOf(s.messages[0]!)!.msg as Json)['result'])];
      if (m['method'] === 'tools/call') {
        pendingCall = m['id'];
        return [req(4242, method, params)];
      }
      if (m['id'] === 4242 && 'result' in m) return [res(pendingCall, text(`the client said: ${((m['result'] as Json)['content'] as Json)['text']}`))];
      if (m['id'] === 4242 && 'error' in m) return [res(pendingCall, { ...text('failed'), isError: true })];
      return [];
    };
  let pendingCall: unknown;

  it('answers them with the recorded answer, under the live id', () => {
    const { sent, result } = drive(s, asking(sampling));
    const reply = sent.find((m) => m['id'] === 4242)!;
    expect(reply).toEqual({ jsonrpc: '2.0', id: 4242, result: canned });
    expect(result.entries.find((e) => e.type === 'server-request')).toMatchObject({ status: 'same', id: 'srv-1', liveId: 4242, seq: 6, answerSeq: 7 });
    expect(result.failed).toBe(false);
  });

  it('falls back to the same method when the params changed, and reports the change', () => {
    const changed = { ...sampling, maxTokens: 99 };
    const { sent, result } = drive(s, asking(changed));
    expect(sent.find((m) => m['id'] === 4242)).toMatchObject({ result: canned });
    const e = result.entries.find((x) => x.type === 'server-request')!;
    expect(e.status).toBe('different');
    expect(e.differences!.map((d) => d.path)).toEqual(['params.maxTokens']);
  });

  it('answers an unknown request with -32601 and reports it; the recorded one is missing', () => {
    const { sent, result } = drive(s, asking({}, 'elicitation/create'), { timeoutMs: 50 });
    expect((sent.find((m) => m['id'] === 4242)!['error'] as Json)['code']).toBe(-32601);
    expect(result.entries.find((e) => e.status === 'unexpected')).toMatchObject({ method: 'elicitation/create', failed: true });
    expect(result.entries.find((e) => e.type === 'server-request' && e.status === 'missing')).toMatchObject({ method: 'sampling/createMessage', seq: 6 });
    expect(result.failed).toBe(true);
  });

  it('answers pings whether recorded or not', () => {
    const { sent, result } = drive(s, (m) => (m['method'] === 'initialize' ? [req('p', 'ping'), res(m['id'], (s.answerOf(s.messages[0]!)!.msg as Json)['result'])] : []), { timeoutMs: 10 });
    expect(sent.find((m) => m['id'] === 'p')).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    expect(result.serverPings).toBe(1);
  });
});

// ---- the server going away, noise ----

describe('server exit and stdout noise', () => {
  const s = sessionOf([...HANDSHAKE, C(call(1, 'a')), S(res(1, text('a'))), C(call(2, 'b')), S(res(2, text('b')))]);

  it('turns everything still expected into missing when the server exits', () => {
    const plan = planReplay(s);
    const engine = new ReplayEngine(plan, { timeoutMs: 1000, compare: { ignore: [], volatile: true }, now: () => 0 });
    engine.start();
    engine.onLine(JSON.stringify(res(0, (s.answerOf(s.messages[0]!)!.msg as Json)['result'])));
    engine.onExit(1, null);
    expect(engine.finished).toBe(true);
    const r = engine.result();
    expect(statuses(r)).toEqual(['2 initialize same', '5 tools/call missing', '7 tools/call missing']);
    expect(r.entries[1]!.notes.join()).toContain('exited with code 1 before answering');
    expect(r.entries[2]!.notes.join()).toContain('not sent');
    expect(r.serverExit).toEqual({ code: 1, signal: null, early: true });
  });

  it('fails when the server writes more non-JSON lines on stdout than recorded', () => {
    const plan = planReplay(s);
    const engine = new ReplayEngine(plan, { timeoutMs: 1000, compare: { ignore: [], volatile: true }, now: () => 0 });
    engine.start();
    engine.onLine('Server listening on stdio');
    const r = engine.result();
    const e = r.entries.find((x) => x.type === 'stdout')!;
    expect(e.failed).toBe(true);
    expect(e.notes[0]).toContain('"Server listening on stdio"');
  });

  it('accepts as much noise as the recording had', () => {
    const noisy = sessionOf([{ from: 'server', raw: 'hello' }, ...HANDSHAKE]);
    const engine = new ReplayEngine(planReplay(noisy), { timeoutMs: 1000, compare: { ignore: [], volatile: true }, now: () => 0 });
    engine.onLine('hello');
    expect(engine.result().entries.some((e) => e.type === 'stdout')).toBe(false);
  });
});

// ---- shortened records ----

describe('records the log shortened', () => {
  const long = 'y'.repeat(3000);
  const cut = `${'y'.repeat(100)}…[truncated: 3000 bytes]`;

  it('does not send a shortened request, says so with advice, and replays the rest', () => {
    const s = sessionOf([
      ...HANDSHAKE,
      C(call(1, 'echo', { text: cut }), { truncated: true, bytes: 3100 }),
      S(res(1, text(long))),
      C(call(2, 'a')),
      S(res(2, text('a'))),
    ]);
    const { sent, result } = drive(s, echoServer(s));
    expect(sent.some((m) => (m['params'] as Json | undefined)?.['name'] === 'echo')).toBe(false);
    const e = result.entries.find((x) => x.target === 'echo')!;
    expect(e).toMatchObject({ status: 'not-replayed', failed: false });
    expect(e.notes[0]).toContain('shortened copy');
    expect(e.notes[0]).toContain('--max-log-bytes 4096');
    expect(result.summary).toMatchObject({ notReplayed: 1, same: 2 });
    expect(result.failed).toBe(false);
  });

  it('refuses --seq for a shortened request, saying why', () => {
    const s = sessionOf([...HANDSHAKE, C(call(1, 'echo', { text: cut }), { truncated: true, bytes: 3100 }), S(res(1, text(long)))]);
    expect(() => planReplay(s, { seq: 5 })).toThrow(InputError);
    expect(() => planReplay(s, { seq: 5 })).toThrow(/--seq 5: the log holds only a shortened copy of request #5 \(3100 bytes\).*--max-log-bytes 4096/);
  });

  it('compares a shortened recorded answer as far as the log shows', () => {
    const s = sessionOf([...HANDSHAKE, C(call(1, 'big')), S(res(1, text(cut)), { truncated: true, bytes: 3050 })]);
    const same = drive(s, (m) => (m['method'] === 'tools/call' ? [res(m['id'], text(long))] : echoServer(s)(m)));
    const e = same.result.entries.find((x) => x.target === 'big')!;
    expect(e).toMatchObject({ status: 'same', partial: true });
    expect(e.notes.join()).toContain('compared as far as the log shows');
    const other = drive(s, (m) => (m['method'] === 'tools/call' ? [res(m['id'], text(`z${long}`))] : echoServer(s)(m)));
    expect(other.result.entries.find((x) => x.target === 'big')!.status).toBe('different');
  });

  it('sends the intact elements of a shortened batch as they were', () => {
    const s = sessionOf([...HANDSHAKE, C([call(1, 'a'), call(2, 'b')], { truncated: true }), S([res(1, text('a')), res(2, text('b'))])]);
    const { lines, result } = drive(s, echoServer(s));
    expect(lines.some((l) => l.startsWith('['))).toBe(true);
    expect(result.summary.same).toBe(3);
  });
});

// ---- selection and the 2026-07-28 form ----

describe('--seq and --only', () => {
  const s = sessionOf([...HANDSHAKE, C(call(1, 'a')), S(res(1, text('a'))), C(req(2, 'tools/list')), S(res(2, { tools: [] })), C(call(3, 'a', { again: true })), S(res(3, text('a2')))]);

  it('replays the handshake and the chosen call', () => {
    const { sent, result } = drive(s, echoServer(s), { sel: { seq: 7 } });
    expect(sent.map((m) => m['method'])).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(result.mode).toBe('selected');
    expect(result.failed).toBe(false);
  });

  it('takes the seq of an answer as the seq of its request', () => {
    expect(drive(s, echoServer(s), { sel: { seq: 8 } }).sent.map((m) => m['method'])).toContain('tools/list');
  });

  it('replays every call of a tool or method, one after the other', () => {
    const plan = planReplay(s, { only: 'a' });
    expect(planUnits(plan).map((u) => u.items[0]!.seq)).toEqual([2, 4, 5, 9]);
    // each waits for the call before it, which had waited for the one before it
    expect(planUnits(plan).map((u) => u.waitFor.map((r) => r.seq))).toEqual([[], [2], [2], [5]]);
    expect(planUnits(planReplay(s, { only: 'tools/list' }))).toHaveLength(3);
  });

  it('explains a selection that names nothing', () => {
    expect(() => planReplay(s, { only: 'nope' })).toThrow(InputError);
    expect(() => planReplay(s, { only: 'nope' })).toThrow(/recorded: initialize, tools\/call a, tools\/list/);
    expect(() => planReplay(s, { seq: 4 })).toThrow(/#4 is a notification from the client/);
    expect(() => planReplay(s, { seq: 99 })).toThrow(/no JSON-RPC message with seq 99/);
  });
});

describe('the 2026-07-28 form', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } };
  const s = sessionOf([
    C(req(1, 'server/discover', { _meta: meta })),
    S(res(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } })),
    C(call(2, 'confirm', { x: 1 })),
    S(res(2, { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: { message: 'sure?' } } }, requestState: 'rec-state' }), { inputRequired: true }),
    C(req(3, 'tools/call', { name: 'confirm', arguments: { x: 1 }, inputResponses: { a: { action: 'accept' } }, requestState: 'rec-state', _meta: meta }), { retryOf: 6 }),
    S(res(3, { resultType: 'complete', ...text('confirmed') })),
  ]);

  /** A server that hands out its own requestState and only accepts it back. */
  const server: FakeServer = (m) => {
    const p = (m['params'] ?? {}) as Json;
    if (m['method'] === 'server/discover') return [res(m['id'], (s.answerOf(s.messages[0]!)!.msg as Json)['result'])];
    if (p['requestState'] === undefined) return [res(m['id'], { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create', params: { message: 'sure?' } } }, requestState: 'live-state' })];
    if (p['requestState'] === 'live-state') return [res(m['id'], { resultType: 'complete', ...text('confirmed') })];
    return [err(m['id'], -32602, 'bad requestState')];
  };

  it('replays discovery and the retry with the requestState this server handed out', () => {
    const { sent, result } = drive(s, server);
    expect(sent.map((m) => m['method'])).toEqual(['server/discover', 'tools/call', 'tools/call']);
    expect((sent[2]!['params'] as Json)['requestState']).toBe('live-state');
    expect((sent[2]!['params'] as Json)['_meta']).toEqual(meta);
    expect(result.failed).toBe(false);
    expect(result.summary.same).toBe(3);
  });

  it('uses server/discover as the handshake of a selected call', () => {
    expect(drive(s, server, { sel: { seq: 4 } }).sent.map((m) => m['method'])).toEqual(['server/discover', 'tools/call']);
  });
});

describe('cancelled requests', () => {
  it('do not count, whatever their outcome', () => {
    const s = sessionOf([...HANDSHAKE, C(call(1, 'slow')), C(note('notifications/cancelled', { requestId: 1 })), S(res(1, text('late')), { cancelled: true })]);
    const { result } = drive(s, echoServer(s, (m, a) => ((m['params'] as Json | undefined)?.['name'] === 'slow' ? { ...a, result: text('other') } : a)));
    const e = result.entries.find((x) => x.target === 'slow')!;
    expect(e).toMatchObject({ status: 'different', failed: false });
    expect(e.notes.join()).toContain('cancelled this request in the recording');
    expect(result.failed).toBe(false);
  });
});

// ---- long replays: the report keeps its first entries, counts the rest ----

describe('a long replay lists only the first differences', () => {
  const N = LISTED_FAILURES + 50;
  const steps: Step[] = [...HANDSHAKE];
  for (let i = 1; i <= N; i++) steps.push(C(call(i, 'echo', { i })), S(res(i, text(`recorded ${i}`))));
  const s = sessionOf(steps);
  const big = 'y'.repeat(100_000);
  // every call differs; call 1 in many places, call 2 by a large value
  const server = echoServer(s, (m, a) => {
    const args = (m['params'] as Json | undefined)?.['arguments'] as Json | undefined;
    const i = args?.['i'] as number | undefined;
    if (i === undefined) return a;
    if (i === 1) return { ...a, result: { content: Array.from({ length: 30 }, (_, k) => ({ type: 'text', text: `live ${k}` })) } };
    return { ...a, result: text(i === 2 ? big : `live ${i}`) };
  });

  it('counts every call, keeps the first LISTED_FAILURES that differ, and says how many are not listed', () => {
    const { result } = drive(s, server);
    expect(result.summary).toMatchObject({ same: 1, different: N, missing: 0 });
    expect(result.failed).toBe(true);
    expect(result.notListed).toEqual({ same: 0, different: 50, missing: 0, unexpected: 0, notReplayed: 0, other: 0 });
    const listed = result.entries.filter((e) => e.status === 'different');
    expect(listed).toHaveLength(LISTED_FAILURES);
    // the first ones in report order
    expect(listed.map((e) => e.id)).toEqual(Array.from({ length: LISTED_FAILURES }, (_, k) => k + 1));
    // call 1: its first KEPT_DIFFERENCES differences, and how many more there were
    const first = listed[0]!;
    expect(first.differences).toHaveLength(KEPT_DIFFERENCES);
    expect(first.moreDifferences).toBe(30 - KEPT_DIFFERENCES);
    // call 2: the replayed 100 KB text is kept shortened, as the log shortens
    const v = listed[1]!.differences![0]!.replayed as string;
    expect(v.length).toBeLessThan(KEPT_VALUE_BYTES);
    expect(v).toMatch(/^y+…\[truncated: 100000 bytes\]$/);

    const out = renderText(result, { logFile: 'x.log', command: 'node', args: ['s.js'] }, makeChalk(0));
    expect(out).toContain(`  … 50 more exchanges not listed (50 different): the report lists the first ${LISTED_FAILURES} that fail and the first ${LISTED_OTHERS} others; the totals below count them all\n`);
    expect(out).toContain(`      … and ${30 - 10} more (--json shows the first ${KEPT_DIFFERENCES})\n`);
    expect(out).toMatch(/1 same, 150 different, 0 missing — differences found: exit 1\n$/);
    expect(JSON.parse(renderJson(result, { logFile: 'x.log', command: 'node', args: [] }))).toMatchObject({ notListed: { different: 50 }, summary: { different: N } });
  });

  it('lists everything, and says nothing of it, below the caps', () => {
    const small = sessionOf([...HANDSHAKE, C(call(1, 'echo', { i: 1 })), S(res(1, text('recorded 1')))]);
    const { result } = drive(small, echoServer(small, (_m, a) => ({ ...a, result: text('live') })));
    expect(result.notListed).toBeUndefined();
    expect('notListed' in JSON.parse(renderJson(result, { logFile: 'x.log', command: 'node', args: [] }))).toBe(false);
    expect(renderText(result, { logFile: 'x.log', command: 'node', args: [] }, makeChalk(0))).not.toContain('not listed');
  });
});

describe('ReportRows', () => {
  const entry = (failed: boolean, seq: number): ReplayEntry => ({ type: 'answer', status: failed ? 'different' : 'same', failed, seq, notes: [] });

  it('keeps the first entries in report order whatever order they come in, and counts all', () => {
    const rows = new ReportRows({ failures: 2, others: 1 });
    for (const seq of [9, 3, 7, 5]) rows.add(entry(true, seq), seq);
    for (const seq of [8, 4]) rows.add(entry(false, seq), seq);
    const r = rows.report();
    expect(r.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(r.summary).toMatchObject({ same: 2, different: 4 });
    expect(r.notListed).toMatchObject({ same: 1, different: 2 });
    expect(r.failed).toBe(true);
  });

  it('shortens a large value and leaves a small one as it is', () => {
    expect(keptValue({ a: 1 })).toEqual({ a: 1 });
    const v = keptValue({ text: 'z'.repeat(50_000), n: 1 }) as Json;
    expect(v['n']).toBe(1);
    expect(JSON.stringify(v).length).toBeLessThanOrEqual(KEPT_VALUE_BYTES);
    expect(v['text']).toMatch(/…\[truncated: 50000 bytes\]$/);
  });
});

describe('a long pipeline', () => {
  // the recorded client sent its calls without waiting, and the recording has no answer to any
  const N = MAX_OUTSTANDING + 500;
  const steps: Step[] = [...HANDSHAKE];
  for (let i = 1; i <= N; i++) steps.push(C(call(i, 'fire')));
  const s = sessionOf(steps);
  const init = echoServer(s);

  it('matches every answer that comes', () => {
    const server: FakeServer = (m) => {
      if (m['method'] === 'initialize') return init(m);
      return 'id' in m ? [res(m['id'], text('ok'))] : [];
    };
    const { result, sent } = drive(s, server);
    expect(sent.filter((m) => m['method'] === 'tools/call')).toHaveLength(N);
    expect(result.strayAnswers).toBe(0);
    expect(result.summary).toMatchObject({ same: 1, other: N });
    expect(result.entries.filter((e) => e.target === 'fire').every((e) => e.status === 'answered')).toBe(true);
  });

  it('waits for room, and drops requests unanswered in the recording once they waited the timeout', () => {
    let now = 0;
    const engine = new ReplayEngine(planReplay(s), { timeoutMs: 100, compare: { ignore: [], volatile: true }, now: () => now });
    const [initLine] = engine.start();
    const lines = engine.onLine(JSON.stringify(init(JSON.parse(initLine!) as Json)[0]));
    expect(lines).toHaveLength(1 + MAX_OUTSTANDING); // notifications/initialized, then as many calls as may be out
    expect(engine.finished).toBe(false);
    expect(engine.nextDeadline()).toBe(100);
    now = 100;
    expect(engine.onTick()).toHaveLength(500);

    const server: FakeServer = (m) => (m['method'] === 'initialize' ? init(m) : []);
    const { result, sent } = drive(s, server, { timeoutMs: 100 });
    expect(sent.filter((m) => m['method'] === 'tools/call')).toHaveLength(N);
    expect(result.summary).toMatchObject({ same: 1, other: N, missing: 0 });
    expect(result.entries.filter((e) => e.target === 'fire').every((e) => e.status === 'unanswered')).toBe(true);
  });
});

describe('a pipeline whose answers come after a later notification', () => {
  // recorded: 1,001 calls sent without waiting, then a notification; the server answered only after it
  // (review of the in-flight window: at 1,000 the notification waited behind call 1,001 and every call timed out)
  const N = 1001;
  const steps: Step[] = [...HANDSHAKE];
  for (let i = 1; i <= N; i++) steps.push(C(call(i, 'gated')));
  steps.push(C(note('notifications/go')));
  for (let i = 1; i <= N; i++) steps.push(S(res(i, text('ok'))));
  const s = sessionOf(steps);
  const init = echoServer(s);

  it('sends the notification in order and gets every answer', () => {
    const held: Json[] = [];
    const server: FakeServer = (m) => {
      if (m['method'] === 'initialize') return init(m);
      if (m['method'] === 'notifications/go') return held.splice(0).map((q) => res(q['id'], text('ok')));
      if ('id' in m) held.push(m);
      return [];
    };
    const { result, sent } = drive(s, server);
    expect(sent.filter((m) => m['method'] === 'tools/call')).toHaveLength(N);
    expect(result.strayAnswers).toBe(0);
    expect(result.summary).toMatchObject({ same: N + 1, missing: 0 });
  });
});
