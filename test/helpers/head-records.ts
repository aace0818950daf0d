/**
 * Record heads for the head writer's tests: the writer's output as text, numbers of every kind it must
 * write as JSON.stringify does, and the cases for heads written from templates, which run twice — with
 * the WebAssembly writer (head-bytes.test.ts) and without it (head-bytes-js.test.ts).
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { writeHead } from '../../src/log/head-bytes.js';
import type { LogRecord } from '../../src/log/record.js';
import { serializeHead } from '../../src/log/serialize.js';

/** The head writeHead writes for `rec`, or null when it says it may not fit `room`. */
export const head = (rec: LogRecord, room = 1 << 16): string | null => {
  const out = Buffer.alloc(room + 8);
  const end = writeHead(rec, out, 3, room);
  return end < 0 ? null : out.toString('utf8', 3, end);
};

/** Whole thousandths below 2^42 in size: record times and latencies. */
export const millis = fc.integer({ min: -(2 ** 42) * 1000 + 1, max: 2 ** 42 * 1000 - 1 }).map((m) => m / 1000);

/** Numbers of every kind a record member may hold. */
export const number = fc.oneof(
  fc.integer(),
  fc.nat(),
  millis,
  fc.double(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 1796040539259.597, 0.1, 4398046511103.999, 4398046511104.5),
);

/** Records of a few shapes, repeated: most heads come from a template learnt from an earlier record. */
export function templateHeadCases(): void {
  it('keep the session after times whose text grows and shrinks, one session throughout (one message per read)', () => {
    // each time is written once into the cached start; the session member after it must move with its length
    const times = [1796040539259.597, 1796040539259.6, 1796040539260, 1796040539260.01, 1796040539260.01, 7, -0.5, 1796040539261.123, 12.25, 12.25, 4398046511103.999];
    times.forEach((time, i) => {
      const rec = { v: 1, time, session: 'one-session', seq: i, from: 'client', kind: 'request', id: i, bytes: 10 } as LogRecord;
      expect(head(rec)).toBe(serializeHead(rec));
    });
  });

  // records of a few shapes, repeated, with numbers and ids that change: most heads then come from a
  // template learnt from an earlier record, and every one must still equal JSON.stringify's
  const shaped = fc
    .tuple(
      fc.nat({ max: 5 }),
      fc.oneof(fc.nat(), fc.string({ maxLength: 8 }), fc.constant(null)),
      number,
      number,
      fc.constantFrom('tools/call', 'ping', 'resources/read', 'x"y', 'é'),
      fc.constantFrom('echo', 'add', undefined),
      fc.oneof(millis, fc.constant(1796040539259.597)),
      fc.oneof(fc.nat(), fc.integer({ min: -5, max: 2 ** 32 })),
      fc.constantFrom('s-1', 's-2', 'a-much-longer-session-id-0123456789'),
    )
    .map(([shape, id, a, b, method, target, time, seq, session]) => {
      // the start (time, seq, session) changes too: the WebAssembly writer writes it with the rest
      const base = { v: 1, time, session, seq, from: shape & 1 ? 'server' : 'client', kind: shape & 1 ? 'response' : 'request' };
      if (shape < 2) return { ...base, id, method, target, bytes: a } as LogRecord;
      if (shape < 4) return { ...base, id, method, target, reqSeq: a, ms: b, bytes: 12 } as LogRecord;
      return { ...base, method, isError: true, bytes: a } as LogRecord;
    });

  it('match serializeHead byte for byte', () => {
    fc.assert(
      fc.property(fc.array(shaped, { minLength: 1, maxLength: 40 }), (recs) => {
        // 64 KiB of room: every one of these heads fits, so none may come back unwritten
        for (const rec of recs) expect(head(rec)).toBe(serializeHead(rec));
      }),
      { numRuns: 1000 },
    );
  });

  it('learn from the common records and write them again from the template', () => {
    const res = (id: number, ms: number) =>
      ({ v: 1, time: 1796040539260.5, session: 's-2', seq: 100 + id, from: 'server', kind: 'response', id, method: 'tools/call', target: 'echo', reqSeq: id, ms, bytes: 1087 }) as LogRecord;
    for (let i = 0; i < 50; i++) expect(head(res(i, i / 1000))).toBe(serializeHead(res(i, i / 1000)));
    // a string where the template has a number, and a different method: the member path, still exact
    const odd = { ...res(1, 2), reqSeq: 'x' } as unknown as LogRecord;
    expect(head(odd)).toBe(serializeHead(odd));
    const other = { ...res(2, 3), method: 'tools/list' } as LogRecord;
    expect(head(other)).toBe(serializeHead(other));
  });
}
