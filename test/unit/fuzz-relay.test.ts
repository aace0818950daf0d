/**
 * Issue 8, item 9: the analysis side of the relay (LineSplitter → json shortener → Session, wired by the
 * Observer) and the pump, fuzzed with random bytes in random chunks (fast-check). Properties:
 * - nothing throws out of the observer, and nothing is caught inside it either (no "analysis error");
 * - every record is valid against the log contract, seqs are consecutive;
 * - per direction, the records account for every input byte: Σ(bytes + LF) equals the input length,
 *   one record per line (a torn last line included);
 * - the splitter never holds more than its limit;
 * - the pump relays exactly the input, in order, whatever the chunking and however slow the reader,
 *   and hands the observer exactly the same bytes — even when the log sink throws.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PassThrough, Writable } from 'node:stream';
import { LineSplitter } from '../../src/framing/line-splitter.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { Observer, type RecordSink } from '../../src/proxy/observer.js';
import { pump } from '../../src/proxy/pump.js';
import { createRing, Kind } from '../../src/proxy/ring.js';
import { RingWriter } from '../../src/proxy/ring-writer.js';
import { RingReader } from '../../src/proxy/ring-reader.js';
import { validateRecord } from '../../src/log/validate-record.js';
import { split } from '../helpers/split.js';

type Dir = 'client' | 'server' | 'stderr';


/** Lines the input holds: one per LF, plus a torn last line. */
function lineCount(b: Buffer): number {
  let n = 0;
  for (const x of b) if (x === 0x0a) n++;
  return n + (b.length > 0 && b[b.length - 1] !== 0x0a ? 1 : 0);
}

const message = fc
  .record({
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
    method: fc.constantFrom('initialize', 'tools/call', 'tools/list', 'notifications/progress', 'notifications/cancelled', 'ping', 'x/y'),
    params: fc.jsonValue({ maxDepth: 4 }),
    kind: fc.constantFrom('request', 'notification', 'result', 'error', 'batch'),
  })
  .map(({ id, method, params, kind }) => {
    const m =
      kind === 'request'
        ? { jsonrpc: '2.0', id, method, params }
        : kind === 'notification'
          ? { jsonrpc: '2.0', method, params }
          : kind === 'result'
            ? { jsonrpc: '2.0', id, result: params }
            : kind === 'error'
              ? { jsonrpc: '2.0', id, error: { code: -32601, message: String(method), data: params } }
              : [{ jsonrpc: '2.0', id, method, params }, { jsonrpc: '2.0', method }];
    return Buffer.from(`${JSON.stringify(m)}\n`);
  });

const fragment = fc.oneof(
  { weight: 4, arbitrary: message },
  // a valid message cut short, or with garbage spliced in
  { weight: 1, arbitrary: fc.tuple(message, fc.nat()).map(([m, n]) => m.subarray(0, n % m.length)) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 600 }).map((a) => Buffer.from(a)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      Buffer.from('\r\n'),
      Buffer.from([0]),
      Buffer.from([0xff, 0xfe]),
      Buffer.from([0xc3]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('\u2028é漢🙂\x1b]0;x\x07', 'utf8'),
      Buffer.from('\n'),
      Buffer.from('[]\n'),
      Buffer.from('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}\n'),
    ),
  },
  // lines longer than the limit: JSON with a long string, a long run of one byte, deep nesting
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => Buffer.from(`{"jsonrpc":"2.0","id":7,"result":{"blob":"${'b'.repeat(n)}","n":[1,2,3]}}\n`)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => Buffer.alloc(n, 0x7b)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}\n`)) },
);
const stream = fc.array(fragment, { maxLength: 30 }).map((parts) => Buffer.concat(parts));

/** A sink that keeps serialized records in memory; `throwEvery` makes every n-th write throw. */
function memorySink(throwEvery = 0): RecordSink & { lines: string[] } {
  let n = 0;
  const lines: string[] = [];
  return {
    lines,
    write(text, body) {
      n++;
      if (throwEvery > 0 && n % throwEvery === 0) throw new Error('disk on fire');
      // a head with the message bytes lent separately, as the file sink gets it
      lines.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`);
      return true;
    },
    takeLoss: () => null,
    close: () => {},
  };
}

describe('fuzz: splitter + shortener + session (the observer)', () => {
  it('fed through the ring (one reused buffer for every entry, a small ring that wraps and fills), it writes exactly what it writes fed the chunks themselves', () => {
    fc.assert(
      fc.property(
        fc.record({ client: stream, server: stream }),
        fc.array(fc.nat(), { maxLength: 60 }),
        fc.array(fc.constantFrom<'client' | 'server'>('client', 'server'), { maxLength: 200 }),
        fc.constantFrom(1024, 4096, 65536),
        (inputs, cuts, order, capacity) => {
          const chunks = { client: split(inputs.client, cuts), server: split(inputs.server, cuts.map((c) => c * 5)) };
          const steps: Array<['client' | 'server', Buffer]> = [];
          for (const d of order) {
            const c = chunks[d].shift();
            if (c) steps.push([d, c]);
          }
          for (const d of ['client', 'server'] as const) for (const c of chunks[d]) steps.push([d, c]);
          const direct = memorySink();
          const a = new Observer({ sessionId: 'ring', maxLogBytes: 4096, sink: direct, warn: () => {}, shortener: jsonShortener, now: () => 1 });
          for (const [d, c] of steps) a.take(d, c, 1);
          const viaRing = memorySink();
          const b = new Observer({ sessionId: 'ring', maxLogBytes: 4096, sink: viaRing, warn: () => {}, shortener: jsonShortener, now: () => 1 });
          const sab = createRing(capacity);
          const writer = new RingWriter(sab, { paceBytes: 1 << 30, onPace: () => {}, onBehind: () => {} });
          const reader = new RingReader(sab);
          const take = (kind: number, payload: Buffer, time: number) => b.take(kind === Kind.Client ? 'client' : 'server', payload, time);
          for (const [d, c] of steps) {
            writer.chunk(d === 'client' ? Kind.Client : Kind.Server, c, 1);
            // the worker reads now and then; the writer holds what finds no room meanwhile
            if (c.length % 3 === 0) reader.drain(take, () => writer.retry());
          }
          for (let k = 0; k < 10_000 && (writer.waiting > 0 || reader.pending()); k++) reader.drain(take, () => writer.retry());
          expect(writer.waiting).toBe(0);
          expect(viaRing.lines).toEqual(direct.lines);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('never throws, keeps every record valid, and accounts for every byte of every direction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ client: stream, server: stream, stderr: stream }),
        fc.array(fc.nat(), { maxLength: 60 }),
        fc.array(fc.constantFrom<Dir>('client', 'server', 'stderr'), { maxLength: 200 }),
        fc.integer({ min: 256, max: 8192 }),
        async (inputs, cuts, order, limit) => {
          const sink = memorySink();
          const warnings: string[] = [];
          let t = 1_000;
          const obs = new Observer({ sessionId: 'fuzz', maxLogBytes: limit, sink, warn: (m) => warnings.push(m), shortener: jsonShortener, now: () => t++ });
          obs.event('start', { name: 'fuzz' });
          // interleave the three directions' chunks in a random order
          const chunks: Record<Dir, Buffer[]> = { client: split(inputs.client, cuts), server: split(inputs.server, cuts.map((c) => c * 7)), stderr: split(inputs.stderr, cuts.map((c) => c * 3)) };
          const feed = (d: Dir, c: Buffer) => (d === 'client' ? obs.take('client', c, 1) : d === 'server' ? obs.take('server', c, 1) : obs.take('stderr', c, 1));
          for (const d of order) {
            const c = chunks[d].shift();
            if (c) feed(d, c);
          }
          for (const d of ['client', 'server', 'stderr'] as const) for (const c of chunks[d]) feed(d, c);
          await obs.finish({ exitCode: 0, exitSignal: null, forced: false });

          expect(warnings).toEqual([]);
          const records = sink.lines.map((l) => {
            expect(l.endsWith('\n')).toBe(true);
            expect(l.slice(0, -1)).not.toContain('\n');
            return JSON.parse(l) as Record<string, unknown>;
          });
          records.forEach((r, i) => {
            expect(validateRecord(r)).toEqual([]);
            expect(r['seq']).toBe(i + 1);
          });
          const lineRecs = (d: Dir) =>
            records.filter((r) => (d === 'stderr' ? r['kind'] === 'stderr' : r['from'] === d && r['kind'] !== 'event' && r['kind'] !== 'stderr'));
          for (const d of ['client', 'server', 'stderr'] as const) {
            const recs = lineRecs(d);
            expect(recs).toHaveLength(lineCount(inputs[d]));
            const accounted = recs.reduce((n, r) => n + (r['bytes'] as number) + (r['partial'] ? 0 : 1), 0);
            expect(accounted).toBe(inputs[d].length);
          }
          expect(records.at(-1)).toMatchObject({ event: 'end' });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an exception in the log sink never escapes the observer; the failure is reported once', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), async (input, cuts, every) => {
        const sink = memorySink(every);
        const warnings: string[] = [];
        const obs = new Observer({ sessionId: 'fuzz', maxLogBytes: 1024, sink, warn: (m) => warnings.push(m), shortener: jsonShortener });
        for (const c of split(input, cuts)) {
          obs.take('client', c, 1);
          obs.take('server', c, 1);
        }
        await obs.finish();
        expect(warnings.length).toBeLessThanOrEqual(1);
        if (warnings.length === 1) expect(warnings[0]).toMatch(/analysis error .*the relay goes on/);
      }),
      { numRuns: 100 },
    );
  });

  it('the splitter never holds more than its limit, whatever the chunking', () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 60 }), fc.integer({ min: 16, max: 4096 }), (input, cuts, limit) => {
        let lines = 0;
        let bytes = 0;
        const s = new LineSplitter(
          limit,
          (l) => {
            lines++;
            bytes += l.bytes + (l.partial ? 0 : 1);
            expect((l.data ?? l.head)!.length).toBeLessThanOrEqual(limit);
            if (l.shortened != null) expect(Buffer.byteLength(l.shortened)).toBeLessThanOrEqual(Math.max(limit, 256));
          },
          jsonShortener,
        );
        for (const c of split(input, cuts)) {
          s.push(c);
          expect(s.heldBytes).toBeLessThanOrEqual(limit);
        }
        s.end();
        expect(lines).toBe(lineCount(input));
        expect(bytes).toBe(input.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fuzz: the pump relays exactly the input', () => {
  /** A destination that takes `hwm` bytes before asking to wait, and completes writes asynchronously. */
  function slowDest(hwm: number, delays: number[]): Writable & { got: Buffer[] } {
    const got: Buffer[] = [];
    let i = 0;
    const w = new Writable({
      highWaterMark: hwm,
      write(chunk: Buffer, _enc, cb) {
        got.push(Buffer.from(chunk));
        const d = delays[i++ % Math.max(1, delays.length)] ?? 0;
        if (d === 0) cb();
        else setTimeout(cb, d % 3);
      },
    }) as Writable & { got: Buffer[] };
    w.got = got;
    return w;
  }

  it('random bytes, random chunking, a slow reader: output equals input, the observer sees the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 40 }), fc.integer({ min: 1, max: 4096 }), fc.array(fc.nat(), { maxLength: 8 }), async (input, cuts, hwm, delays) => {
        const src = new PassThrough({ highWaterMark: 64 });
        const dst = slowDest(hwm, delays);
        const seen: Buffer[] = [];
        const sink = memorySink(3); // a log that fails every third write must not matter
        const obs = new Observer({ sessionId: 'pump', maxLogBytes: 1024, sink, warn: () => {}, shortener: jsonShortener });
        const ended = new Promise<void>((resolve) => {
          pump(src, dst, {
            onChunk: (c) => {
              seen.push(Buffer.from(c));
              obs.take('client', c, 1);
            },
            onEnd: () => resolve(),
            onDestError: () => {},
          });
        });
        for (const c of split(input, cuts)) {
          if (!src.write(c)) await new Promise((r) => src.once('drain', r));
        }
        src.end();
        await ended;
        await new Promise<void>((r) => (dst.writableFinished ? r() : dst.once('finish', () => r())));
        expect(Buffer.concat(dst.got).equals(input)).toBe(true);
        expect(Buffer.concat(seen).equals(input)).toBe(true);
        await obs.finish();
      }),
      { numRuns: 100 },
    );
  });
});
