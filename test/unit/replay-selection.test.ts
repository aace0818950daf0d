/**
 * `--seq`/`--only` plans in memory: the chosen calls go one after the other, each line waiting for the one
 * request before it (not a copy of every request sent so far), and the server's messages counted for a
 * selection are those made while a chosen call was in flight, found in one walk — checked against the
 * definition on random pipelined sessions; `--seq` of every record of random sessions with batches both
 * ways (a server batch holding an answer beside a request of its own), ids used again and shortened
 * calls chooses, sends, waits and counts as the definition says, or refuses. The work is counted, not timed: planning and walking a
 * selection of thousands of calls reads each message a few times and hands out one waited-for request per
 * line (a plan that copied the requests sent before each line, or tested every message against every
 * call's window, does thousands of times that). And a selection whose every request the log shortened is
 * refused, saying how many and the size to record with.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { LogRecord } from '../../src/log/record.js';
import { planReplay } from '../../src/replay/plan.js';
import { buildSession, type RecMsg, type RecordedSession } from '../../src/replay/recorded.js';
import { rng } from '../helpers/rng.js';

const SESSION = 'sel-1';

/** Builds log records one message at a time, pairing answers the way the log writer does. */
class Recorder {
  readonly records: LogRecord[] = [{ v: 1, time: 1000, session: SESSION, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'x', command: 'node', args: ['x.js'] }];
  private readonly open = new Map<string, number>();

  private push(r: Record<string, unknown>): number {
    const seq = this.records.length + 1;
    this.records.push({ v: 1, time: 1000 + seq, session: SESSION, seq, ...r } as LogRecord);
    return seq;
  }

  request(from: 'client' | 'server', id: number, method: string, target?: string, extra: Record<string, unknown> = {}): number {
    const params = target !== undefined ? { name: target, arguments: {} } : {};
    const seq = this.push({ from, kind: 'request', id, method, ...(target !== undefined ? { target } : {}), msg: { jsonrpc: '2.0', id, method, params }, ...extra });
    this.open.set(`${from}|${id}`, seq);
    return seq;
  }

  answer(from: 'client' | 'server', id: number): number {
    const other = from === 'client' ? 'server' : 'client';
    const reqSeq = this.open.get(`${other}|${id}`)!;
    this.open.delete(`${other}|${id}`);
    return this.push({ from, kind: 'response', id, reqSeq, ms: 1, msg: { jsonrpc: '2.0', id, result: { content: [] } } });
  }

  /** One batch record: requests (`id` and `method`), notifications (`method`), answers (`id` alone). */
  batch(from: 'client' | 'server', elements: Array<{ id?: number; method?: string; target?: string }>, extra: Record<string, unknown> = {}): number {
    const seq = this.records.length + 1;
    const other = from === 'client' ? 'server' : 'client';
    const msg: unknown[] = [];
    const items = elements.map((e) => {
      if (e.method === undefined) {
        const reqSeq = this.open.get(`${other}|${e.id}`);
        this.open.delete(`${other}|${e.id}`);
        msg.push({ jsonrpc: '2.0', id: e.id, result: {} });
        return { kind: 'response', id: e.id, ...(reqSeq !== undefined ? { reqSeq, ms: 1 } : {}) };
      }
      const params = e.target !== undefined ? { name: e.target, arguments: {} } : {};
      if (e.id === undefined) {
        msg.push({ jsonrpc: '2.0', method: e.method, params });
        return { kind: 'notification', method: e.method };
      }
      this.open.set(`${from}|${e.id}`, seq);
      msg.push({ jsonrpc: '2.0', id: e.id, method: e.method, params });
      return { kind: 'request', id: e.id, method: e.method, ...(e.target !== undefined ? { target: e.target } : {}) };
    });
    return this.push({ from, kind: 'batch', msg, items, ...extra });
  }

  notify(from: 'client' | 'server', method: string): number {
    return this.push({ from, kind: 'notification', method, msg: { jsonrpc: '2.0', method } });
  }

  noise(): number {
    return this.push({ from: 'server', kind: 'invalid', raw: 'not json' });
  }

  handshake(): void {
    this.request('client', 0, 'initialize');
    this.answer('server', 0);
    this.notify('client', 'notifications/initialized');
  }

  session(): RecordedSession {
    return buildSession(this.records);
  }
}

/** A session where the client pipelines calls of tools a and b and the server interleaves its own messages. */
function randomSession(seed: number, steps: number): RecordedSession {
  const r = rng(seed);
  const rec = new Recorder();
  rec.handshake();
  const open: number[] = [];
  let id = 1;
  let serverId = 1000;
  for (let i = 0; i < steps; i++) {
    const x = r();
    if (x < 0.3 || open.length === 0) {
      rec.request('client', id, 'tools/call', r() < 0.5 ? 'a' : 'b');
      open.push(id++);
    } else if (x < 0.6) {
      rec.answer('server', open.splice(Math.floor(r() * open.length), 1)[0]!);
    } else if (x < 0.75) {
      rec.notify('server', r() < 0.5 ? 'notifications/progress' : 'notifications/message');
    } else if (x < 0.85) {
      rec.request('server', serverId, 'roots/list');
      rec.answer('client', serverId++);
    } else if (x < 0.9) {
      rec.noise();
    } else {
      // a call the recording never answers: its window is empty
      rec.request('client', id++, 'tools/call', 'a');
    }
  }
  return rec.session();
}

/**
 * A session with batches both ways (a client batch of calls and a notification, a server batch answering
 * two calls, one answering a call beside a request and a notification of its own), ids used again once
 * answered, calls the log shortened, and the client's answers to the server's requests.
 */
function batchedSession(seed: number, steps: number): RecordedSession {
  const r = rng(seed);
  const rec = new Recorder();
  rec.handshake();
  const open: number[] = [];
  let serverId = 1000;
  // a small pool of ids: one comes back once its call was answered
  const freeId = (): number => {
    for (let id = 1; ; id++) if (!open.includes(id) && (r() < 0.5 || id > 6)) return id;
  };
  const tool = (): string => (r() < 0.5 ? 'a' : 'b');
  for (let i = 0; i < steps; i++) {
    const x = r();
    if (x < 0.2 || open.length === 0) {
      const id = freeId();
      rec.request('client', id, 'tools/call', tool(), r() < 0.1 ? { truncated: true, bytes: 5000 } : {});
      open.push(id);
    } else if (x < 0.28) {
      const one = freeId();
      open.push(one);
      const two = freeId();
      open.push(two);
      rec.batch('client', [{ id: one, method: 'tools/call', target: tool() }, { method: 'notifications/progress' }, { id: two, method: 'tools/call', target: tool() }], r() < 0.2 ? { truncated: true } : {});
    } else if (x < 0.45) {
      rec.answer('server', open.splice(Math.floor(r() * open.length), 1)[0]!);
    } else if (x < 0.52 && open.length >= 2) {
      rec.batch('server', open.splice(0, 2).map((id) => ({ id })));
    } else if (x < 0.57) {
      // an answer with a request and a notification of the server in the same record
      rec.batch('server', [{ id: open.splice(0, 1)[0]! }, { id: serverId, method: 'roots/list' }, { method: 'notifications/message' }]);
      rec.answer('client', serverId++);
    } else if (x < 0.7) {
      rec.notify('server', r() < 0.5 ? 'notifications/progress' : 'notifications/message');
    } else if (x < 0.8) {
      rec.request('server', serverId, 'roots/list');
      rec.answer('client', serverId++);
    } else if (x < 0.85) {
      rec.noise();
    } else if (x < 0.9) {
      rec.notify('client', 'notifications/cancelled');
    } else if (x < 0.95) {
      rec.request('client', 0, 'initialize');
      rec.answer('server', 0);
    } else {
      rec.request('client', freeId(), 'tools/list');
    }
  }
  return rec.session();
}

/** What a selection counts of the server's side, by definition: messages after a chosen call and before its answer. */
function byDefinition(s: RecordedSession, chosen: RecMsg[]): { requests: number[]; notifications: Record<string, number>; noise: number } {
  const windows = chosen.map((c) => [c.seq, s.answerOf(c)?.seq ?? c.seq] as const);
  const inside = (m: RecMsg): boolean => windows.some(([lo, hi]) => m.seq > lo && m.seq < hi);
  const notifications: Record<string, number> = {};
  let noise = 0;
  const requests: number[] = [];
  for (const m of s.messages) {
    if (m.from !== 'server' || !inside(m)) continue;
    if (m.kind === 'request') requests.push(m.seq);
    if (m.kind === 'invalid') noise++;
    if (m.kind === 'notification' && m.method) notifications[m.method] = (notifications[m.method] ?? 0) + 1;
  }
  return { requests, notifications, noise };
}

/** Every step of a plan, made. */
function stepsOf(plan: ReturnType<typeof planReplay>): ReturnType<ReturnType<typeof plan.steps>['next']>['value'][] {
  const out = [];
  const it = plan.steps();
  for (let r = it.next(); !r.done; r = it.next()) out.push(r.value);
  return out;
}

describe('a selection', () => {
  it('counts the server messages made while a chosen call was in flight, as defined, on pipelined sessions', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const s = randomSession(seed, 300);
      for (const only of ['a', 'b', 'tools/call']) {
        const plan = planReplay(s, { only });
        const chosen = s.messages.filter((m) => m.from === 'client' && m.kind === 'request' && (m.method === only || m.target === only));
        const want = byDefinition(s, chosen);
        expect(plan.expectedServerRequests.map((m) => m.seq), `seed ${seed} --only ${only}`).toEqual(want.requests);
        expect(plan.recordedNotifications, `seed ${seed} --only ${only}`).toEqual(want.notifications);
        expect(plan.recordedStdoutNoise, `seed ${seed} --only ${only}`).toBe(want.noise);
      }
    }
  });

  it('by --seq, of every record of sessions with batches both ways and ids used again, is what the definition says', () => {
    const isRequest = (m: RecMsg): boolean => m.from === 'client' && m.kind === 'request';
    let planned = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const s = batchedSession(seed, 120);
      const handshake = s.messages.slice(0, 3).filter((m) => m.from === 'client');
      const last = s.messages.at(-1)!.seq;
      for (let seq = 1; seq <= last + 1; seq++) {
        const label = `seed ${seed} --seq ${seq}`;
        // the client requests of the record, or those its server answers answer; the handshake's left out
        const at = s.messages.filter((m) => m.seq === seq);
        let chosen = at.filter(isRequest);
        if (chosen.length === 0) chosen = at.filter((a) => a.from === 'server' && a.reqSeq !== undefined).flatMap((a) => s.messages.filter((q) => isRequest(q) && q.seq === a.reqSeq && s.answerOf(q) === a));
        if (chosen.length === 0) {
          expect(() => planReplay(s, { seq }), label).toThrow(/--seq takes the seq of a client request or of its answer/);
          continue;
        }
        const calls = chosen.filter((m) => !handshake.includes(m));
        // a shortened call is not sent; an element of a shortened batch is (these hold no markers)
        const whole = (m: RecMsg): boolean => !m.truncated || m.batchSize !== undefined;
        if (calls.length > 0 && !calls.some(whole)) {
          expect(() => planReplay(s, { seq }), label).toThrow(/the log holds only a shortened copy/);
          continue;
        }
        const plan = planReplay(s, { seq });
        planned++;
        // each line alone, in order, waiting for the request sent before it that the recording answered
        const want: unknown[] = [];
        let before: RecMsg | undefined;
        for (const m of [...handshake, ...calls]) {
          if (!whole(m)) {
            want.push({ notReplayed: [m] });
            continue;
          }
          want.push({ send: { seq: m.seq, items: [m], batch: false, waitFor: before ? [before] : [] } });
          if (m.kind === 'request' && s.answerOf(m) !== undefined) before = m;
        }
        expect(stepsOf(plan), label).toEqual(want);
        const side = byDefinition(s, calls);
        expect(plan.expectedServerRequests.map((m) => m.seq), label).toEqual(side.requests);
        expect(plan.recordedNotifications, label).toEqual(side.notifications);
        expect(plan.recordedStdoutNoise, label).toBe(side.noise);
      }
    }
    // most records name a call: the definition was checked, not only the refusals
    expect(planned).toBeGreaterThan(1500);
  });

  it('sends the handshake and the chosen calls in order, each waiting for the answered request before it', () => {
    const s = randomSession(7, 300);
    const plan = planReplay(s, { only: 'a' });
    const sent: RecMsg[] = [];
    for (const step of stepsOf(plan)) {
      if (!('send' in step!)) continue;
      const before = sent.filter((m) => m.kind === 'request' && s.answerOf(m) !== undefined).at(-1);
      expect(step.send.waitFor).toEqual(before ? [before] : []);
      sent.push(...step.send.items);
    }
    const calls = s.messages.filter((m) => m.from === 'client' && m.kind === 'request' && m.target === 'a');
    expect(sent.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', ...calls.map(() => 'tools/call')]);
    expect(sent.slice(2)).toEqual(calls);
  });

  it('of thousands of calls reads each message a few times and waits for one request per line', () => {
    const CALLS = 3000;
    const rec = new Recorder();
    rec.handshake();
    for (let i = 1; i <= CALLS; i++) {
      rec.request('client', i, 'tools/call', 'a');
      rec.notify('server', 'notifications/progress');
      rec.answer('server', i);
    }
    const s = rec.session();
    // count every read of the fields a plan walks by
    let reads = 0;
    for (const m of s.messages) {
      for (const key of ['seq', 'from', 'kind', 'method', 'target'] as const) {
        const value = m[key];
        Object.defineProperty(m, key, { get: () => (reads++, value), enumerable: true, configurable: true });
      }
    }
    const plan = planReplay(s, { only: 'a' });
    const steps = stepsOf(plan);
    const waited = steps.reduce((n, st) => n + ('send' in st! ? st.send.waitFor.length : 0), 0);
    expect(steps).toHaveLength(CALLS + 2);
    expect(plan.recordedNotifications).toEqual({ 'notifications/progress': CALLS });
    expect(waited).toBe(CALLS + 1);
    expect(reads / s.messages.length).toBeLessThan(40);
  });

  it('of requests the log shortened, every one, is refused, saying how many and the size to record with', () => {
    const rec = new Recorder();
    rec.handshake();
    rec.request('client', 1, 'tools/call', 'big', { truncated: true, bytes: 3100 });
    rec.answer('server', 1);
    rec.request('client', 2, 'tools/call', 'big', { truncated: true, bytes: 9000 });
    rec.answer('server', 2);
    rec.request('client', 3, 'tools/call', 'small');
    rec.answer('server', 3);
    const s = rec.session();
    expect(() => planReplay(s, { only: 'big' })).toThrow(InputError);
    expect(() => planReplay(s, { only: 'big' })).toThrow(
      '--only "big": the log holds only a shortened copy of request #5 (3100 bytes) and 1 more, so it cannot be replayed exactly; record the session again with --max-log-bytes 9216 (or more) to keep it whole',
    );
    // one of them whole: the rest is reported, not refused
    expect(stepsOf(planReplay(s, { only: 'tools/call' })).filter((st) => 'notReplayed' in st!)).toHaveLength(2);
  });
});
