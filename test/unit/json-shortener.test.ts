import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { LineSplitter, type Line } from '../../src/framing/line-splitter.js';

/** Feeds `input` to a fresh shortener cut at the given chunk sizes (cycled). */
function shorten(input: Buffer | string, limit: number, sizes: number[] = [input.length || 1]): string | null {
  const buf = typeof input === 'string' ? Buffer.from(input) : input;
  const s = jsonShortener(limit);
  let i = 0;
  let k = 0;
  while (i < buf.length) {
    const n = Math.max(1, sizes[k++ % sizes.length]!);
    s.write(buf.subarray(i, i + n));
    i += n;
  }
  return s.finish();
}

/** Random chunk sizes from a seeded generator (deterministic). */
function randomSizes(seed: number, count: number, max: number): number[] {
  let x = seed >>> 0 || 1;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(1 + (x % max));
  }
  return out;
}

const TRUNC = /…\[truncated: (\d+) bytes\]$/;
const ELIDED = /^…\[elided: (\d+) bytes\]$/;

/**
 * Checks that `out` is a shortened copy of `orig`: same shape, strings equal or a prefix plus the
 * truncation marker with the exact raw size, arrays a prefix of their elements plus an optional elision
 * marker, objects a subset of their members plus an optional elision member.
 */
function expectShortenedOf(out: unknown, orig: unknown, path = '$'): void {
  if (typeof orig === 'string') {
    expect(typeof out, path).toBe('string');
    const s = out as string;
    if (s === orig) return;
    const m = TRUNC.exec(s);
    expect(m, `${path}: ${JSON.stringify(s).slice(0, 80)}`).not.toBeNull();
    expect(Number(m![1]), path).toBe(Buffer.byteLength(JSON.stringify(orig)) - 2);
    expect(orig.startsWith(s.slice(0, m!.index)), path).toBe(true);
    return;
  }
  if (Array.isArray(orig)) {
    expect(Array.isArray(out), path).toBe(true);
    const a = out as unknown[];
    let n = a.length;
    const last = a[n - 1];
    if (typeof last === 'string' && ELIDED.test(last) && !(typeof orig[n - 1] === 'string' && orig[n - 1] === last)) n--;
    expect(n, path).toBeLessThanOrEqual(orig.length);
    if (n < a.length) expect(n, path).toBeLessThan(orig.length);
    for (let i = 0; i < n; i++) expectShortenedOf(a[i], orig[i], `${path}[${i}]`);
    return;
  }
  if (orig !== null && typeof orig === 'object') {
    expect(out !== null && typeof out === 'object' && !Array.isArray(out), path).toBe(true);
    const o = out as Record<string, unknown>;
    const src = orig as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (key === '…' && !Object.hasOwn(src, '…')) {
        expect(o[key], path).toMatch(/^\[elided: \d+ bytes\]$/);
        continue;
      }
      expect(Object.hasOwn(src, key), `${path}.${key}`).toBe(true);
      expectShortenedOf(o[key], src[key], `${path}.${key}`);
    }
    return;
  }
  expect(out, path).toEqual(orig);
}

describe('jsonShortener', () => {
  it('cuts a 20 MB base64 blob fed in random chunks, keeping the shape and the small members after it', () => {
    const blob = randomBytes(15 * 1024 * 1024).toString('base64');
    // The official SDK writes `result` before `jsonrpc` and `id`.
    const text = `{"result":{"content":[{"type":"image","data":"${blob}","mimeType":"image/png"}]},"jsonrpc":"2.0","id":7}`;
    const input = Buffer.from(text);
    const limit = 1024 * 1024;
    const out = shorten(input, limit, randomSizes(42, 4096, 65536));
    expect(out).not.toBeNull();
    expect(Buffer.byteLength(out!)).toBeLessThanOrEqual(limit);
    const msg = JSON.parse(out!);
    const data: string = msg.result.content[0].data;
    expect(data.endsWith(`…[truncated: ${blob.length} bytes]`)).toBe(true);
    const head = data.slice(0, data.indexOf('…'));
    expect(head.length).toBeGreaterThanOrEqual(64);
    expect(blob.startsWith(head)).toBe(true);
    expect(msg.result.content[0].type).toBe('image');
    expect(msg.result.content[0].mimeType).toBe('image/png');
    expect(msg.jsonrpc).toBe('2.0');
    expect(msg.id).toBe(7);
  });

  it('gives the same output for every split point through escapes and multibyte characters', () => {
    const long = 'é€😀\\"\n\t\u0001\ud83d'.repeat(40);
    const value = { k: long, 'ké\\"y': ['\ud83d\ude00'.repeat(50), 1.5e-7, -0, true, null, false, 'short \\ "q"'], n: 12345678901234567890 };
    const text = Buffer.from(JSON.stringify(value));
    const whole = shorten(text, 256);
    expect(whole).not.toBeNull();
    expectShortenedOf(JSON.parse(whole!), value);
    expect(JSON.parse(whole!).k).toMatch(TRUNC);
    for (let cut = 1; cut < text.length; cut++) {
      const s = jsonShortener(256);
      s.write(text.subarray(0, cut));
      s.write(text.subarray(cut));
      expect(s.finish(), `split at ${cut}`).toBe(whole);
    }
    expect(shorten(text, 256, [1])).toBe(whole);
  });

  it('never cuts inside an escape or a UTF-8 sequence, whatever the keep size lands on', () => {
    for (let pad = 0; pad < 12; pad++) {
      for (const unit of ['😀', 'é', '€', '\\u00e9', '\\ud83d\\ude00', '\\\\', '\\"']) {
        const raw = 'x'.repeat(pad) + unit.repeat(60);
        const text = `["${raw}"]`;
        const out = shorten(text, 256, [3]);
        expect(out, `${pad} ${unit}`).not.toBeNull();
        const s: string = JSON.parse(out!)[0];
        const m = TRUNC.exec(s);
        expect(m).not.toBeNull();
        expect(Number(m![1])).toBe(Buffer.byteLength(raw));
        const original: string = JSON.parse(`"${raw}"`);
        const head = s.slice(0, m!.index);
        expect(original.startsWith(head)).toBe(true);
        expect(head).not.toMatch(/[\ud800-\udbff]$/); // no half of a surrogate pair
        expect(head).not.toContain('\ufffd');
      }
    }
  });

  it('property: any JSON, any chunking, small limit → parses and is a shortened copy no larger than the limit', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 256, max: 2048 }),
        (value, sizes, limit) => {
          const text = JSON.stringify(value);
          const out = shorten(text, limit, sizes);
          expect(out).not.toBeNull();
          expect(Buffer.byteLength(out!)).toBeLessThanOrEqual(limit);
          expectShortenedOf(JSON.parse(out!), JSON.parse(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: any JSON, any chunking, huge limit → output equals input exactly', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: 'binary' }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
        (value, sizes) => {
          const text = JSON.stringify(value);
          expect(shorten(text, 1 << 30, sizes)).toBe(text);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: long strings inside random JSON are cut with their exact size', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.string({ unit: 'binary', minLength: 200, maxLength: 600 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 }),
        (value, long, sizes) => {
          const doc = { result: value, blob: long, jsonrpc: '2.0', id: 'x' };
          const text = JSON.stringify(doc);
          const out = shorten(text, 4096, sizes);
          expect(out).not.toBeNull();
          const parsed = JSON.parse(out!);
          expectShortenedOf(parsed, JSON.parse(text));
          expect(parsed.id).toBe('x');
          expect(parsed.jsonrpc).toBe('2.0');
          if (Buffer.byteLength(JSON.stringify(long)) - 2 > 64) expect(parsed.blob).toMatch(TRUNC);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('elides the tail of a huge array and keeps the members around it', () => {
    const values = Array.from({ length: 1_000_000 }, (_, i) => i);
    const text = `{"jsonrpc":"2.0","id":1,"result":{"values":${JSON.stringify(values)},"total":1000000},"method_after":"x"}`;
    const limit = 64 * 1024;
    const out = shorten(text, limit, randomSizes(7, 1000, 100_000));
    expect(out).not.toBeNull();
    expect(Buffer.byteLength(out!)).toBeLessThanOrEqual(limit);
    const msg = JSON.parse(out!);
    const kept: unknown[] = msg.result.values;
    const marker = kept.at(-1) as string;
    const m = ELIDED.exec(marker);
    expect(m).not.toBeNull();
    const n = kept.length - 1;
    expect(n).toBeGreaterThan(1000);
    expect(kept.slice(0, n)).toEqual(values.slice(0, n));
    // the marker counts the raw bytes of the elided elements (separators not counted)
    expect(Number(m![1])).toBe(values.slice(n).reduce((sum, v) => sum + String(v).length, 0));
    expect(msg.result.total).toBe(1000000);
    expect(msg.method_after).toBe('x');
    expect(msg.id).toBe(1);
    expectShortenedOf(msg, JSON.parse(text));
  });

  it('adds an elision member to an object whose members do not fit', () => {
    const big: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) big[`key${i}`] = `value number ${i}`;
    const text = JSON.stringify({ id: 'a', params: big });
    const out = shorten(text, 4096, [1000]);
    const msg = JSON.parse(out!);
    expect(Buffer.byteLength(out!)).toBeLessThanOrEqual(4096);
    expect(msg.params['…']).toMatch(/^\[elided: \d+ bytes\]$/);
    expect(msg.id).toBe('a');
    expectShortenedOf(msg, JSON.parse(text));
  });

  it('handles a top-level batch array, whitespace around the value and a trailing CR', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, result: { text: 'a'.repeat(10_000) } },
      { jsonrpc: '2.0', id: 2, result: { text: 'b'.repeat(10) } },
    ];
    const text = `  \t${JSON.stringify(batch)}  \r`;
    const out = shorten(text, 1024, [5]);
    const parsed = JSON.parse(out!);
    expect(parsed[0].id).toBe(1);
    expect(parsed[0].result.text).toMatch(/^a+…\[truncated: 10000 bytes\]$/);
    expect(parsed[1]).toEqual(batch[1]);
  });

  it('keeps small scalars of every batch element even when early elements are huge', () => {
    const batch = Array.from({ length: 3 }, (_, i) => ({ result: { items: Array.from({ length: 2000 }, (_, j) => j) }, jsonrpc: '2.0', id: i }));
    const out = shorten(JSON.stringify(batch), 8192, [333]);
    const parsed = JSON.parse(out!);
    expect(parsed[0].id).toBe(0);
    expect(parsed[0].jsonrpc).toBe('2.0');
    expectShortenedOf(parsed, batch);
  });

  it('returns null for input that is not JSON or not complete', () => {
    const cases = [
      'hello world',
      '',
      '   ',
      '{"a":1',
      '{"a" 1}',
      '{"a":1,}',
      '[1,2',
      '[1 2]',
      '{"a":1}}',
      '{"a":1} {"b":2}',
      '[1,2]x',
      '"unterminated',
      '[tru]',
      '[nul, 1]',
      '[1.]',
      '[-]',
      '{1:2}',
      '["a\u0001b"]',
      '[}',
      '{]',
      '\x1b[31m{"a":1}',
      '{"a":"' + 'x'.repeat(100_000), // torn inside a long string
    ];
    for (const c of cases) expect(shorten(c, 256, [3]), JSON.stringify(c.slice(0, 40))).toBeNull();
  });

  it('returns scalars at top level and null for an unrepresentable top-level number', () => {
    expect(shorten('123', 256)).toBe('123');
    expect(shorten(' true\r', 256, [1])).toBe('true');
    expect(shorten('null', 256, [1])).toBe('null');
    expect(JSON.parse(shorten(JSON.stringify('z'.repeat(5000)), 256, [17])!)).toMatch(/^z{64}…\[truncated: 5000 bytes\]$/);
    expect(shorten('1'.repeat(1000), 256, [10])).toBeNull();
  });

  it('elides over-long numbers inside containers and very deep nesting in the output', () => {
    const out = shorten(`[1,${'9'.repeat(1000)},2]`, 256, [7]);
    expect(JSON.parse(out!)).toEqual([1, '…[elided: 1001 bytes]']); // the long number and the 2 after it
    const deep = '['.repeat(1000) + ']'.repeat(1000);
    const d = shorten(deep, 1 << 20, [100]);
    let v: unknown = JSON.parse(d!);
    let depth = 0;
    while (Array.isArray(v) && v.length > 0 && Array.isArray(v[0])) {
      v = v[0];
      depth++;
    }
    expect(depth).toBeLessThan(200);
    expect((v as unknown[])[0]).toMatch(ELIDED);
  });

  it('works as the line splitter shortener for an over-long line', () => {
    const limit = 4096;
    const lines: Line[] = [];
    const splitter = new LineSplitter(limit, (l) => lines.push(l), jsonShortener);
    const text = `{"jsonrpc":"2.0","id":"r1","result":{"content":[{"type":"text","text":"${'t'.repeat(100_000)}"}]}}`;
    const buf = Buffer.from(text + '\n{"jsonrpc":"2.0","id":2,"result":{}}\n');
    for (let i = 0; i < buf.length; i += 999) splitter.push(buf.subarray(i, i + 999));
    splitter.end();
    expect(lines).toHaveLength(2);
    expect(lines[0]!.bytes).toBe(Buffer.byteLength(text));
    expect(lines[0]!.head!.length).toBe(limit);
    const msg = JSON.parse(lines[0]!.shortened!);
    expect(msg.id).toBe('r1');
    expect(msg.result.content[0].text).toMatch(/…\[truncated: 100000 bytes\]$/);
    expect(lines[1]!.data!.toString()).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
  });
});
