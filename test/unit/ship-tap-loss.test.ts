/**
 * Exact loss counts of a pino transport (issue 27): when the transport fails, only the records its worker
 * had not confirmed are counted (a confirmation covers what was shipped when it was asked for, and an
 * acknowledgement with an error covers nothing), plus those still batched and every later one; the
 * tap's own sink-gap records are never counted, neither while it is broken nor while it is behind; and
 * the log's sink-gap record states exactly that number. A write that throws costs the records it held;
 * a stream that drained is no longer behind (what it was behind before does not count again); a period
 * that lost records for two reasons is stated with the first.
 */
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShipTap, type TransportStream } from '../../src/ship/ship-tap.js';
import { Observer, type RecordSink } from '../../src/proxy/observer.js';
import type { LogRecord } from '../../src/log/record.js';

class FakeStream extends EventEmitter implements TransportStream {
  writes = 0;
  accept = true;
  flushes: Array<(err?: Error) => void> = [];
  write(): boolean {
    this.writes++;
    return this.accept;
  }
  flush(cb: (err?: Error) => void): void {
    this.flushes.push(cb);
  }
  end(): void {
    setImmediate(() => this.emit('close'));
  }
  worker = { terminate: async () => (this.emit('close'), 0) };
}

const turn = () => new Promise((r) => setImmediate(r));
const rec = (seq: number, extra: Partial<LogRecord> = {}): LogRecord => ({ v: 1, time: seq, session: 's', seq, from: 'proxy', kind: 'event', event: 'spawn', ...extra }) as LogRecord;

beforeEach(() => {
  // only the confirmation timer is fake; turns of the event loop stay real
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ShipTap: what a failure costs', () => {
  /** Ships `before` records in one turn, has the worker confirm them (or not), ships `after` more, batches `batched`, fails. */
  async function failAfter(before: number, after: number, batched: number, ack: 'ok' | 'error' | 'none'): Promise<{ lost: number; reason: string } | null> {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    let seq = 0;
    for (let i = 0; i < before; i++) tap.record({ record: rec(++seq) });
    await turn();
    vi.advanceTimersByTime(1000); // the periodic confirmation asks the worker
    expect(s.flushes).toHaveLength(before > 0 ? 1 : 0);
    for (let i = 0; i < after; i++) tap.record({ record: rec(++seq) });
    await turn();
    if (ack === 'ok') s.flushes.shift()?.();
    if (ack === 'error') s.flushes.shift()?.(new Error('worker busy'));
    for (let i = 0; i < batched; i++) tap.record({ record: rec(++seq) });
    s.emit('error', new Error('boom'));
    return tap.takeLoss();
  }

  it('counts only what was shipped after the confirmed point, and the batched records', async () => {
    // the confirmation was asked for after 5 and answered after 8 were shipped: it covers 5
    expect(await failAfter(5, 3, 2, 'ok')).toEqual({ lost: 5, reason: 'transport-failed' });
  });

  it('an acknowledgement with an error confirms nothing; no acknowledgement confirms nothing', async () => {
    expect(await failAfter(5, 3, 2, 'error')).toEqual({ lost: 10, reason: 'transport-failed' });
    expect(await failAfter(5, 3, 2, 'none')).toEqual({ lost: 10, reason: 'transport-failed' });
  });

  it('loses nothing when everything shipped was confirmed and nothing waits', async () => {
    expect(await failAfter(4, 0, 0, 'ok')).toBeNull();
  });

  it('then counts every later record, once per record, except its own sink-gap records', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    s.emit('error', new Error('boom'));
    tap.record({ record: rec(1) });
    tap.record({ record: rec(2, { event: 'sink-gap', sink: 'ship:t', lost: 1 }) });
    tap.record({ record: rec(3, { event: 'sink-gap', sink: 'otlp', lost: 4 }) }); // another sink's: a record like any other
    tap.record({ record: rec(4) });
    expect(tap.takeLoss()).toEqual({ lost: 3, reason: 'transport-failed' });
    expect(tap.takeLoss()).toBeNull();
  });
});

describe('ShipTap: a write that throws', () => {
  it('costs every record of the turn it carried, then every later one', async () => {
    const s = new FakeStream();
    s.write = () => {
      throw new Error('the worker has exited');
    };
    const warnings: string[] = [];
    const tap = new ShipTap('t', s, (m) => warnings.push(m));
    for (let i = 1; i <= 3; i++) tap.record({ record: rec(i) });
    await turn();
    expect(tap.takeLoss()).toEqual({ lost: 3, reason: 'transport-failed' });
    tap.record({ record: rec(4) });
    expect(tap.takeLoss()).toEqual({ lost: 1, reason: 'transport-failed' });
    expect(warnings).toHaveLength(1);
  });
});

describe('ShipTap: behind a stream that stopped draining', () => {
  const MiB = 1024 * 1024;
  /** Ships records `from`..`to - 1` of a little over 1 MiB each, one per turn of the event loop. */
  async function shipMiB(tap: ShipTap, from: number, to: number): Promise<void> {
    for (let i = from; i < to; i++) {
      tap.record({ record: rec(i, { raw: 'x'.repeat(MiB) }) });
      await turn();
    }
  }

  it('counts from zero again after a drain: a second stall below the bound loses nothing', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    s.accept = false;
    await shipMiB(tap, 0, 7);
    s.emit('drain');
    await shipMiB(tap, 7, 14);
    expect(s.writes).toBe(14);
    expect(tap.takeLoss()).toBeNull();
  });

  it('states a period that lost records behind and then to a failure with the first reason, counting both', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    s.accept = false;
    await shipMiB(tap, 0, 10);
    // 7 records of a little over 1 MiB are behind; the next 3 would pass 8 MiB
    expect(s.writes).toBe(7);
    s.emit('error', new Error('boom'));
    expect(tap.takeLoss()).toEqual({ lost: 10, reason: 'queue-full' });
  });

  it('drops records past the bound as queue-full, but not its own sink-gap records', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    s.accept = false;
    const big = rec(1, { raw: 'x'.repeat(2 * 1024 * 1024) });
    for (let i = 0; i < 4; i++) tap.record({ record: big }); // two written (refused), one batched: the fourth is past 8 MiB
    await turn();
    expect(tap.takeLoss()).toEqual({ lost: 1, reason: 'queue-full' });
    const gapText = 'y'.repeat(3 * 1024 * 1024);
    tap.record({ record: rec(2, { event: 'sink-gap', sink: 'ship:t', lost: 1, raw: gapText }) });
    expect(tap.takeLoss()).toBeNull();
    tap.record({ record: rec(3, { event: 'sink-gap', sink: 'otlp', lost: 1, raw: gapText }) });
    expect(tap.takeLoss()).toEqual({ lost: 1, reason: 'queue-full' });
  });
});

describe('the log states the exact loss', () => {
  it('one sink-gap record with the unconfirmed and later records, before the end record', async () => {
    const parts: string[] = [];
    const sink: RecordSink = {
      write: (text, body) => void parts.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`) || true,
      takeLoss: () => null,
      close: () => {},
    };
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, taps: [tap], now: () => 1 });
    for (let i = 0; i < 3; i++) o.event('spawn', { serverPid: i });
    await turn();
    vi.advanceTimersByTime(1000);
    s.flushes.shift()!(); // the worker confirms the first 3
    o.event('signal', { signal: 'SIGTERM' });
    o.event('exit', { code: 0, signal: null });
    await turn(); // shipped, not confirmed
    s.emit('error', new Error('boom'));
    o.event('stdin-closed'); // after the failure: lost
    await o.finish({ exitCode: 0 });
    const recs = parts.join('').trim().split('\n').map((l) => JSON.parse(l) as { event: string; sink?: string; lost?: number; reason?: string });
    const gaps = recs.filter((r) => r.event === 'sink-gap');
    expect(gaps).toEqual([expect.objectContaining({ sink: 'ship:t', lost: 3, reason: 'transport-failed' })]);
    expect(recs.map((r) => r.event).slice(-2)).toEqual(['sink-gap', 'end']);
  });
});
