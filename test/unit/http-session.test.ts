/**
 * HTTP mode's session bookkeeping: HttpTap writes stdio-mode records plus the `http` member, in arrival
 * order even when a step waits (a decoder); SessionRouter keeps hosts apart by session id, by connection
 * before one exists, by legacy endpoint, and stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { HttpTap } from '../../src/http/http-tap.js';
import { SessionRouter } from '../../src/http/session-router.js';
import type { RecordSink } from '../../src/proxy/observer.js';

function memorySink(): RecordSink & { records: () => Array<Record<string, unknown>> } {
  const lines: string[] = [];
  return {
    write: (text, body) => {
      lines.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`);
      return true;
    },
    takeLoss: () => null,
    close: () => {},
    records: () => lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const line = (text: string) => ({ bytes: Buffer.byteLength(text), data: Buffer.from(text) });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('HttpTap', () => {
  it('pairs like stdio mode and puts the http facts on message records only', async () => {
    const sink = memorySink();
    let t = 1000;
    const tap = new HttpTap({ id: 's1', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => t++ });
    tap.message('client', line('{"jsonrpc":"2.0","id":1,"method":"ping"}'), { method: 'POST', path: '/mcp', stream: 'post' });
    tap.event('http', { http: { method: 'POST', path: '/mcp', status: 200 } });
    tap.message('server', line('{"jsonrpc":"2.0","id":1,"result":{}}'), { method: 'POST', path: '/mcp', status: 200, stream: 'post', eventId: 'e1' });
    tap.finish({ reason: 'deleted' });
    const recs = sink.records();
    expect(recs.map((r) => [r['seq'], r['kind'], r['http']])).toEqual([
      [1, 'request', { method: 'POST', path: '/mcp', stream: 'post' }],
      [2, 'event', { method: 'POST', path: '/mcp', status: 200 }],
      [3, 'response', { method: 'POST', path: '/mcp', status: 200, stream: 'post', eventId: 'e1' }],
      [4, 'event', undefined],
    ]);
    expect(recs[2]).toMatchObject({ reqSeq: 1, id: 1, method: 'ping' });
    expect(tap.seqOfEvent('e1')).toBe(3);
    expect(recs[3]).toMatchObject({ event: 'end', reason: 'deleted', pendingCount: 0 });
  });

  it('runs steps in arrival order: a step that waits holds back the later ones', async () => {
    const sink = memorySink();
    const tap = new HttpTap({ id: 's2', maxLogBytes: 1 << 20, sink, warn: () => {} });
    let release: () => void = () => {};
    tap.step((done) => {
      release = () => {
        tap.message('server', line('{"jsonrpc":"2.0","method":"first"}'), { method: 'POST', path: '/mcp' });
        done();
      };
    });
    tap.step((done) => {
      tap.message('client', line('{"jsonrpc":"2.0","method":"second"}'), { method: 'POST', path: '/mcp' });
      done();
    });
    await settle();
    expect(sink.records()).toEqual([]);
    release();
    await tap.finishInOrder();
    expect(sink.records().map((r) => r['method'] ?? r['event'])).toEqual(['first', 'second', 'end']);
  });
});

describe('SessionRouter', () => {
  const make = () => {
    const ended: Array<[string, string]> = [];
    let n = 0;
    const router = new SessionRouter(
      () => new HttpTap({ id: `t${++n}`, maxLogBytes: 1024, sink: memorySink(), warn: () => {} }),
      (tap, reason) => {
        ended.push([tap.id, reason]);
        tap.finish({ reason });
      },
      3,
    );
    return { router, ended };
  };
  const socket = () => new EventEmitter() as unknown as Socket;

  it('one session per connection until the server names it; then by id from any connection', () => {
    const { router } = make();
    const a = socket();
    const b = socket();
    const first = router.forConnection(a);
    expect(router.forConnection(a)).toBe(first);
    expect(router.forConnection(b)).not.toBe(first);
    router.bind('sid-1', first);
    expect(router.forSessionId('sid-1')).toBe(first);
    // the connection is free for the next host's initialize
    expect(router.forConnection(a)).not.toBe(first);
  });

  it('legacy streams by endpoint; unknown ids get a session of their own', () => {
    const { router } = make();
    const tap = router.forConnection(socket());
    router.bindEndpoint('/messages?sessionId=abc', tap);
    expect(router.forEndpoint('/messages?sessionId=abc')).toBe(tap);
    expect(router.forEndpoint('/messages?sessionId=other')).toBeUndefined();
    const stranger = router.forSessionId('never-seen');
    expect(stranger).not.toBe(tap);
    expect(router.forSessionId('never-seen')).toBe(stranger);
  });

  it('ends a connection session when its connection closes, and the least recently used past the bound', () => {
    const { router, ended } = make();
    const s = socket();
    const tap = router.forConnection(s);
    (s as unknown as EventEmitter).emit('close');
    expect(ended).toEqual([[tap.id, 'connection-closed']]);
    const x = router.forSessionId('x');
    const y = router.forSessionId('y');
    router.forSessionId('z');
    router.forSessionId('x'); // x used again: y is now the oldest
    router.forSessionId('w');
    expect(ended.at(-1)).toEqual([y.id, 'evicted']);
    expect(router.size).toBe(3);
    expect(router.forSessionId('x')).toBe(x);
  });
});

describe('HttpTap: the sinks beside the log and what passed undecoded', () => {
  it('hands every record of every session to the shared sinks in order; their losses become sink-gap records; the end counts undecoded exchanges', () => {
    const sink = memorySink();
    const seen: string[] = [];
    let lost = 3;
    const tap = {
      name: 'otlp',
      record: (r: { record: { session: string; seq: number } }) => void seen.push(`${r.record.session}#${r.record.seq}`),
      takeLoss: () => (lost > 0 ? { lost: lost--, reason: 'export-failed' } : null),
      flush: async () => {},
      close: async () => {},
    };
    const shared = { taps: [tap], nextReport: 0 };
    let t = 1;
    const a = new HttpTap({ id: 'a', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => t++, taps: shared });
    const b = new HttpTap({ id: 'b', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => t++, taps: shared });
    a.message('client', line('{"jsonrpc":"2.0","id":1,"method":"ping"}'), { method: 'POST', path: '/mcp', x: 1 });
    b.exchangeDone({ http: { method: 'POST', path: '/token', x: 2, status: 200 }, started: 0, timing: { end: 1 }, request: { headers: [], bytes: 10 }, notDecoded: 'not decoded: x' }, true, t++);
    a.finish({ reason: 'deleted' });
    b.finish({ reason: 'shutdown' });
    const recs = sink.records();
    // the first record reported the loss right away (once a second at most), the end reported what was left
    expect(recs.map((r) => `${String(r['session'])}#${String(r['seq'])} ${String(r['event'] ?? r['kind'])}`)).toEqual(['a#1 request', 'a#2 sink-gap', 'b#1 exchange', 'a#3 sink-gap', 'a#4 end', 'b#2 sink-gap', 'b#3 end']);
    expect(seen).toEqual(['a#1', 'a#2', 'b#1', 'a#3', 'a#4', 'b#2', 'b#3']);
    expect(recs.find((r) => r['event'] === 'end' && r['session'] === 'b')).toMatchObject({ notDecoded: 1 });
    expect(recs.find((r) => r['event'] === 'end' && r['session'] === 'a')).not.toHaveProperty('notDecoded');
  });
});
