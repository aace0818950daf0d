/**
 * The ring between the relay thread and the analysis worker (one writer, one reader, in memory here):
 * every chunk, event and count comes out once, in order, with its bytes and time, whatever the sizes and
 * however the writes and reads interleave; a full ring holds chunks instead of losing them; past a bound
 * the protocol streams are paced (never dropped) and stderr is dropped, said once, counted where it was;
 * once the analysis is stuck every stream is.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRing, Kind, type StreamKind } from '../../src/proxy/ring.js';
import { RingWriter } from '../../src/proxy/ring-writer.js';
import { RingReader } from '../../src/proxy/ring-reader.js';

interface Out {
  kind: number;
  text: string;
  time: number;
}

function pair(capacity: number, paceBytes = 1 << 30) {
  const sab = createRing(capacity);
  const behind: number[] = [];
  const pace: boolean[] = [];
  const writer = new RingWriter(sab, { paceBytes, onPace: (on) => pace.push(on), onBehind: (held) => behind.push(held) });
  const reader = new RingReader(sab);
  const out: Out[] = [];
  let rooms = 0;
  const read = () => reader.drain((kind, payload, time) => out.push({ kind, text: payload.toString('latin1'), time }), () => rooms++);
  return { writer, reader, out, read, behind, pace, rooms: () => rooms };
}

/** Consecutive entries of one kind joined (a chunk larger than an entry comes out in pieces). */
function joined(out: Out[]): Array<{ kind: number; text: string }> {
  const res: Array<{ kind: number; text: string }> = [];
  for (const o of out) {
    const last = res[res.length - 1];
    if (last !== undefined && last.kind === o.kind && o.kind <= Kind.Stderr) last.text += o.text;
    else res.push({ kind: o.kind, text: o.text });
  }
  return res;
}

describe('relay ring', () => {
  it('hands over chunks of every size and events, in order, with their times, across many wraps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom(0, 1, 2, 3), size: fc.nat({ max: 700 }), readAfter: fc.boolean() }), { maxLength: 120 }),
        fc.constantFrom(256, 512, 1024, 4096),
        (steps, capacity) => {
          const p = pair(capacity);
          const want: Array<{ kind: number; text: string }> = [];
          let t = 1;
          for (const [i, s] of steps.entries()) {
            const text = String.fromCharCode(97 + (i % 26)).repeat(s.size);
            if (s.kind === 3) {
              p.writer.control(Kind.Event, Buffer.from(`e${i}`), t);
              want.push({ kind: Kind.Event, text: `e${i}` });
            } else {
              p.writer.chunk(s.kind as StreamKind, Buffer.from(text, 'latin1'), t);
              want.push({ kind: s.kind, text });
            }
            t++;
            if (s.readAfter) {
              p.read();
              p.writer.retry();
            }
          }
          for (let k = 0; k < 1000 && p.writer.waiting + (p.reader.pending() ? 1 : 0) > 0; k++) {
            p.read();
            p.writer.retry();
          }
          p.read();
          expect(p.writer.waiting).toBe(0);
          // the times are the writer's, in order, and every byte came out once
          for (let k = 1; k < p.out.length; k++) expect(p.out[k]!.time).toBeGreaterThanOrEqual(p.out[k - 1]!.time);
          const expectJoined = joined(want.filter((w) => w.kind > Kind.Stderr || w.text.length > 0).map((w) => ({ ...w, time: 0 })));
          expect(joined(p.out.filter((o) => o.kind > Kind.Stderr || o.text.length > 0))).toEqual(expectJoined);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a full ring holds chunks without losing one, and lets go when the reader made room', () => {
    const p = pair(1024);
    const chunks = Array.from({ length: 20 }, (_, i) => Buffer.from(String(i).padStart(3, '0').repeat(40)));
    for (const c of chunks) p.writer.chunk(Kind.Server, c, 1);
    expect(p.writer.waiting).toBeGreaterThan(0);
    // the reader is told that the writer waits for room
    p.read();
    expect(p.rooms()).toBe(1);
    for (let k = 0; k < 50 && p.writer.waiting > 0; k++) {
      p.writer.retry();
      p.read();
    }
    p.writer.retry();
    expect(p.writer.waiting).toBe(0);
    expect(p.out.map((o) => o.text).join('')).toBe(chunks.map((c) => c.toString()).join(''));
    expect(p.writer.droppedBytes).toBe(0);
    expect(p.behind).toEqual([]);
  });

  it('the reader asks for a retry as long as the writer holds anything: no retry is ever needed but on its word', () => {
    const sab = createRing(512);
    const writer = new RingWriter(sab, { paceBytes: 1 << 30, onPace: () => {}, onBehind: () => {} });
    const reader = new RingReader(sab);
    let text = '';
    let asked = 0;
    const sent = Array.from({ length: 40 }, (_, i) => `${i}`.padStart(90, '.')).join('');
    for (let i = 0; i < 40; i++) writer.chunk(Kind.Client, Buffer.from(sent.slice(i * 90, i * 90 + 90)), 1);
    // like the worker and the relay: a drain, and a retry only when the drain said the writer waits
    for (let k = 0; k < 200; k++) {
      let room = false;
      reader.drain((_kind, payload) => (text += payload.toString()), () => (room = true));
      if (!room) break;
      asked++;
      writer.retry();
    }
    expect(asked).toBeGreaterThan(1);
    expect(writer.waiting).toBe(0);
    expect(text).toBe(sent);
  });

  it('events wait behind held chunks: the order stays the relay order', () => {
    const p = pair(256);
    p.writer.chunk(Kind.Client, Buffer.alloc(200, 0x61), 1);
    p.writer.chunk(Kind.Client, Buffer.alloc(200, 0x62), 2);
    p.writer.control(Kind.Event, Buffer.from('{"name":"exit"}'), 3);
    for (let k = 0; k < 10; k++) {
      p.read();
      p.writer.retry();
    }
    expect(joined(p.out)).toEqual([
      { kind: Kind.Client, text: 'a'.repeat(200) + 'b'.repeat(200) },
      { kind: Kind.Event, text: '{"name":"exit"}' },
    ]);
  });

  it('a chunk larger than an entry may be goes in pieces that join to it', () => {
    const p = pair(4096);
    const big = Buffer.from(Array.from({ length: 3000 }, (_, i) => String.fromCharCode(65 + (i % 26))).join(''));
    p.writer.chunk(Kind.Server, big, 5);
    for (let k = 0; k < 10; k++) {
      p.read();
      p.writer.retry();
    }
    expect(p.out.length).toBeGreaterThan(1);
    expect(p.out.every((o) => o.kind === Kind.Server && o.time === 5)).toBe(true);
    expect(p.out.map((o) => o.text).join('')).toBe(big.toString());
  });

  it('past the bound the protocol streams are paced, never dropped, until half of it is in the ring', () => {
    const p = pair(512, 1400);
    const sent: string[] = [];
    for (let i = 0; i < 30; i++) {
      const c = `{"n":${i}}\n`.padEnd(100, ' ');
      sent.push(c);
      p.writer.chunk(i % 2 ? Kind.Server : Kind.Client, Buffer.from(c), 1);
    }
    expect(p.pace).toEqual([true]);
    expect(p.writer.droppedBytes).toBe(0);
    for (let k = 0; k < 40 && p.writer.waiting > 0; k++) {
      p.read();
      p.writer.retry();
    }
    expect(p.pace).toEqual([true, false]);
    p.read();
    expect(p.out.map((o) => o.text).join('')).toBe(sent.join(''));
    expect(p.behind).toEqual([]);
  });

  it('past the bound stderr is dropped, said once, counted where it was; once the held chunks are in, it is held again', () => {
    const p = pair(512, 1400);
    for (let i = 0; i < 18; i++) p.writer.chunk(Kind.Stderr, Buffer.from(`line ${i}\n`.padEnd(100, ' ')), 1);
    expect(p.writer.droppedBytes).toBe(0);
    // past the bound: dropped; dropped chunks of one stream in a row are one count
    p.writer.chunk(Kind.Stderr, Buffer.from('one\ntwo'), 2);
    p.writer.chunk(Kind.Stderr, Buffer.from(' more\n'), 3);
    expect(p.writer.droppedBytes).toBe(7 + 6);
    expect(p.writer.droppedLines).toBe(2);
    expect(p.behind).toHaveLength(1);
    expect(p.pace).toEqual([]);
    for (let k = 0; k < 40 && p.writer.waiting > 0; k++) {
      p.read();
      p.writer.retry();
    }
    p.read();
    const lost = p.out.filter((o) => o.kind === Kind.Lost).map((o) => JSON.parse(o.text) as unknown);
    expect(lost).toEqual([{ stream: Kind.Stderr, bytes: 13, lines: 2, endsLine: true }]);
    // the count stands after the lines held before it
    const at = p.out.findIndex((o) => o.kind === Kind.Lost);
    expect(p.out.slice(0, at).map((o) => o.text).join('').split('\n').length - 1).toBe(18);
    // all in: held again, and a new outage is said again
    for (let i = 0; i < 4; i++) p.writer.chunk(Kind.Stderr, Buffer.alloc(100, 0x20), 5);
    expect(p.writer.droppedBytes).toBe(13);
    for (let i = 0; i < 20; i++) p.writer.chunk(Kind.Stderr, Buffer.alloc(100, 0x20), 6);
    expect(p.behind).toHaveLength(2);
  });

  it('once the analysis is stuck the pacing ends and every stream past the bound is dropped, counted', () => {
    const p = pair(512, 1400);
    for (let i = 0; i < 20; i++) p.writer.chunk(Kind.Client, Buffer.from(`{"n":${i}}\n`.padEnd(100, ' ')), 1);
    expect(p.pace).toEqual([true]);
    p.writer.stuck();
    expect(p.pace).toEqual([true, false]);
    p.writer.chunk(Kind.Client, Buffer.from('{"a":1}\n{"b":'), 2);
    p.writer.chunk(Kind.Client, Buffer.from('2}\n'), 3);
    p.writer.chunk(Kind.Server, Buffer.from('x\n'), 4);
    expect(p.writer.droppedBytes).toBe(13 + 3 + 2);
    expect(p.writer.droppedLines).toBe(3);
    expect(p.behind).toHaveLength(1);
    for (let k = 0; k < 40 && p.writer.waiting > 0; k++) {
      p.read();
      p.writer.retry();
    }
    p.read();
    const lost = p.out.filter((o) => o.kind === Kind.Lost).map((o) => JSON.parse(o.text) as unknown);
    expect(lost).toEqual([
      { stream: Kind.Client, bytes: 16, lines: 2, endsLine: true },
      { stream: Kind.Server, bytes: 2, lines: 1, endsLine: true },
    ]);
    // caught up: paced again rather than dropped
    for (let i = 0; i < 30; i++) p.writer.chunk(Kind.Client, Buffer.alloc(100, 0x20), 5);
    expect(p.writer.droppedBytes).toBe(18);
    expect(p.pace).toEqual([true, false, true]);
  });

  it('a sleeping reader is woken by the next chunk', async () => {
    const p = pair(1024);
    const slept = p.reader.sleep(30_000);
    const t0 = performance.now();
    setTimeout(() => p.writer.chunk(Kind.Client, Buffer.from('hi'), 1), 20);
    await slept;
    expect(performance.now() - t0).toBeLessThan(5000);
    p.read();
    expect(p.out.map((o) => o.text)).toEqual(['hi']);
  });

  it('a reader that sleeps with entries pending returns at once', async () => {
    const p = pair(1024);
    p.writer.chunk(Kind.Client, Buffer.from('hi'), 1);
    const t0 = performance.now();
    await p.reader.sleep(30_000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
