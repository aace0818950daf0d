/**
 * ShipTap against an in-memory transport stream: each record as its exact log line, in order, the records
 * of one event-loop turn in one write (the log sink's encoded line reused when it has one); past the
 * bound behind a stream that stopped draining, records are dropped and counted; a failed stream counts
 * what its worker had not confirmed, then every further record, with one warning; its own sink-gap
 * records are not counted (that would never end); a transport that is behind is stopped, never ended.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ShipTap, type TransportStream } from '../../src/ship/ship-tap.js';
import type { LogRecord } from '../../src/log/record.js';

class FakeStream extends EventEmitter implements TransportStream {
  written: string[] = [];
  accept = true;
  flushes: Array<(err?: Error) => void> = [];
  ended = false;
  terminated = false;
  worker = { terminate: async () => ((this.terminated = true), this.emit('close'), 0) };
  write(data: Buffer | string): boolean {
    this.written.push(data.toString());
    return this.accept;
  }
  flush(cb: (err?: Error) => void): void {
    this.flushes.push(cb);
  }
  end(): void {
    this.ended = true;
    setImmediate(() => this.emit('close'));
  }
}

const turn = () => new Promise((r) => setImmediate(r));
const lines = (s: FakeStream) => s.written.join('').split('\n').slice(0, -1);

const rec = (seq: number, extra: Partial<LogRecord> = {}): LogRecord => ({ v: 1, time: seq, session: 's', seq, from: 'proxy', kind: 'event', event: 'spawn', ...extra }) as LogRecord;

describe('ShipTap', () => {
  it('ships each record as its log line, the head plus the exact message bytes; one write per turn', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"é":"✓"}}');
    tap.record({ record: { v: 1, time: 1, session: 's', seq: 1, from: 'client', kind: 'request', id: 1, method: 'ping', bytes: body.length } as LogRecord, msgBytes: body });
    tap.record({ record: rec(2, { raw: 'ü' }) });
    expect(s.written).toEqual([]);
    await turn();
    expect(s.written).toEqual([
      '{"v":1,"time":1,"session":"s","seq":1,"from":"client","kind":"request","id":1,"method":"ping","bytes":62,"msg":{"jsonrpc":"2.0","id":1,"method":"ping","params":{"é":"✓"}}}\n' +
        '{"v":1,"time":2,"session":"s","seq":2,"from":"proxy","kind":"event","event":"spawn","raw":"ü"}\n',
    ]);
    tap.record({ record: rec(3) });
    await turn();
    expect(lines(s)).toHaveLength(3);
    expect(tap.takeLoss()).toBeNull();
  });

  it('ships the line the log sink encoded as it is, without serializing the record again', async () => {
    const s = new FakeStream();
    const tap = new ShipTap('t', s, () => {});
    const line = Buffer.from('{"v":1,"seq":1,"as":"the log has it"}\n');
    tap.record({ record: rec(1), line });
    line.fill(0x20); // only valid during the call: the tap keeps a copy
    await turn();
    expect(s.written).toEqual(['{"v":1,"seq":1,"as":"the log has it"}\n']);
  });

  it('drops past 8 MiB behind a stream that stopped draining, counts them, warns once; drain resumes', async () => {
    const s = new FakeStream();
    const warnings: string[] = [];
    const tap = new ShipTap('t', s, (m) => warnings.push(m));
    s.accept = false;
    const big = rec(1, { raw: 'x'.repeat(1024 * 1024) });
    // each line is a little over 1 MiB: the first refused write and six more fit in 8 MiB behind
    for (let i = 0; i < 12; i++) tap.record({ record: big });
    await turn();
    expect(lines(s)).toHaveLength(7);
    expect(tap.takeLoss()).toEqual({ lost: 5, reason: 'queue-full' });
    s.accept = true;
    s.emit('drain');
    tap.record({ record: big });
    await turn();
    expect(lines(s)).toHaveLength(8);
    expect(warnings).toHaveLength(1);
  });

  it('a failed transport costs what was not confirmed and everything after, but not its own sink-gap records', () => {
    const s = new FakeStream();
    const warnings: string[] = [];
    const tap = new ShipTap('t', s, (m) => warnings.push(m));
    for (let i = 1; i <= 5; i++) tap.record({ record: rec(i) });
    s.emit('error', new Error('boom'));
    tap.record({ record: rec(6) });
    tap.record({ record: rec(7, { event: 'sink-gap', sink: 'ship:t', lost: 6 }) });
    expect(tap.takeLoss()).toEqual({ lost: 6, reason: 'transport-failed' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('boom');
  });

  it('close ends a transport that confirmed everything, and stops one that did not', async () => {
    const ok = new FakeStream();
    const tapOk = new ShipTap('ok', ok, () => {});
    tapOk.record({ record: rec(1) });
    const closing = tapOk.close(1000);
    await new Promise((r) => setImmediate(r));
    ok.flushes.shift()!();
    await closing;
    expect([ok.ended, ok.terminated]).toEqual([true, false]);

    const stuck = new FakeStream();
    const warnings: string[] = [];
    const tapStuck = new ShipTap('stuck', stuck, (m) => warnings.push(m));
    tapStuck.record({ record: rec(1) });
    await tapStuck.close(20);
    expect([stuck.ended, stuck.terminated]).toEqual([false, true]);
    expect(warnings).toHaveLength(1);
  });
});
