/**
 * The WebAssembly head writer (head-writer.wat) on its own: every number it is given (a whole number of
 * thousandths, as head-bytes.ts checks) must come out as JSON.stringify writes it, between the runs of
 * its template, after the start and the session tail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD_SLOTS, loadHeadWriter } from '../../src/log/head-wasm.js';
import { thousandths } from '../../src/log/put-decimal.js';

const writer = loadHeadWriter();
const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');
const text = (length: number): string => Buffer.from(writer!.bytes(length)).toString('latin1');

/** Numbers the writer takes: whole thousandths below 2^42 in size, with the edges of each part. */
const exact = fc
  .oneof(
    fc.integer({ min: -(2 ** 42) * 1000 + 1, max: 2 ** 42 * 1000 - 1 }).map((m) => m / 1000),
    fc.integer({ min: -(2 ** 31), max: 2 ** 32 }),
    fc.constantFrom(0, -0, 0.001, 0.01, 0.1, 0.5, -0.5, 9, 10, 99, 100, 999999, 1000000, 1000001, 2 ** 31 - 1, 2 ** 31, 1796040539259.597, 1796040539260, 4398046511103.999, -4398046511103.999),
  )
  .filter((v) => thousandths(v) === thousandths(v));

describe('the WebAssembly head writer', () => {
  it('is there (Node has WebAssembly)', () => {
    expect(writer).not.toBeNull();
  });

  it('writes the start, the session, seq and every value as JSON.stringify does', () => {
    const w = writer!;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: HEAD_SLOTS - 1 }), exact, fc.nat(), fc.array(exact, { maxLength: 32 }), fc.string({ maxLength: 30 }), (slot, time, seq, vals, session) => {
        const tail = `,"session":${JSON.stringify(session)},"seq":`;
        expect(w.session(bytes(tail))).toBe(true);
        const runs = [...vals.map((_, r) => `,"k${r}":`), ',"msg":'];
        expect(w.template(slot, runs.map(bytes))).toBe(true);
        w.values[0] = thousandths(time);
        vals.forEach((v, r) => (w.values[r + 1] = thousandths(v)));
        const length = w.head(slot, vals.length, seq);
        let want = `{"v":1,"time":${JSON.stringify(time)}${tail}${seq}`;
        vals.forEach((v, r) => (want += `${runs[r]}${JSON.stringify(v)}`));
        want += runs[vals.length];
        expect(text(length)).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what does not fit its memory (those records take the JavaScript path)', () => {
    const w = writer!;
    expect(w.session(bytes(`,"session":"${'s'.repeat(2000)}","seq":`))).toBe(false);
    expect(w.template(0, [bytes('x'.repeat(5000))])).toBe(false);
    expect(w.template(0, Array.from({ length: 34 }, () => bytes(',"k":')))).toBe(false);
  });
});
