import { describe, expect, it } from 'vitest';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { LineSplitter, type Line } from '../../src/framing/line-splitter.js';

function collect(limit = 1024, factory?: typeof jsonShortener): { splitter: LineSplitter; lines: Line[] } {
  const lines: Line[] = [];
  // a line's bytes are valid during the callback only (they may be a view the splitter reuses): copy them
  const copy = (b: Buffer | undefined): Buffer | undefined => (b === undefined ? undefined : Buffer.from(b));
  const splitter = new LineSplitter(limit, (l) => lines.push({ ...l, data: copy(l.data), head: copy(l.head) }), factory);
  return { splitter, lines };
}

describe('LineSplitter', () => {
  it('keeps CR, NUL and invalid UTF-8 bytes exactly, splitting on LF only', () => {
    const { splitter, lines } = collect();
    const a = Buffer.from('{"a":1}\r');
    const b = Buffer.from([0x61, 0x00, 0xff, 0xfe, 0xc3, 0x0d, 0x62]); // NUL, invalid UTF-8, a lone lead byte, CR
    splitter.push(Buffer.concat([a, Buffer.from('\n'), b, Buffer.from('\n')]));
    expect(lines).toHaveLength(2);
    expect(lines[0]!.data!.equals(a)).toBe(true);
    expect(lines[0]!.bytes).toBe(a.length);
    expect(lines[1]!.data!.equals(b)).toBe(true);
    expect(lines[1]!.partial).toBeUndefined();
  });

  it('joins a line split across many chunks, including inside a multibyte character', () => {
    const { splitter, lines } = collect();
    const text = Buffer.from('{"text":"héllo 😀 wörld","id":1}');
    for (let i = 0; i < text.length; i++) splitter.push(text.subarray(i, i + 1));
    expect(lines).toHaveLength(0);
    expect(splitter.pendingBytes).toBe(text.length);
    splitter.push(Buffer.from('\n'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.data!.toString('utf8')).toBe(text.toString('utf8'));
    expect(splitter.pendingBytes).toBe(0);
  });

  it('emits many lines from one chunk, including empty lines', () => {
    const { splitter, lines } = collect();
    const msgs = Array.from({ length: 100 }, (_, i) => `{"id":${i}}`);
    splitter.push(Buffer.from(msgs.join('\n') + '\n\n'));
    expect(lines.map((l) => l.data!.toString())).toEqual([...msgs, '']);
    expect(lines.at(-1)!.bytes).toBe(0);
  });

  it('does not keep a reference to the caller’s chunk', () => {
    const { splitter, lines } = collect();
    const chunk = Buffer.from('abc');
    splitter.push(chunk);
    chunk.fill(0x7a);
    splitter.push(Buffer.from('\n'));
    expect(lines[0]!.data!.toString()).toBe('abc');
  });

  it('emits a last line without LF as partial at end of stream, and nothing when there is none', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"a":1}\n{"b":'));
    splitter.end();
    expect(lines).toHaveLength(2);
    expect(lines[1]!.data!.toString()).toBe('{"b":');
    expect(lines[1]!.partial).toBe(true);
    const other = collect();
    other.splitter.push(Buffer.from('x\n'));
    other.splitter.end();
    expect(other.lines).toHaveLength(1);
  });

  it('keeps exactly `limit` bytes of a longer line and reports its true size', () => {
    const limit = 1000;
    const { splitter, lines } = collect(limit);
    const long = Buffer.alloc(12_345, 0x41);
    for (let i = 0; i < long.length; i += 77) splitter.push(long.subarray(i, i + 77));
    splitter.push(Buffer.from('\nnext\n'));
    expect(lines).toHaveLength(2);
    expect(lines[0]!.bytes).toBe(12_345);
    expect(lines[0]!.data).toBeUndefined();
    expect(lines[0]!.head!.length).toBe(limit);
    expect(lines[0]!.head!.equals(long.subarray(0, limit))).toBe(true);
    expect(lines[0]!.shortened).toBeNull(); // not JSON (and the default shortener gives null)
    expect(lines[1]!.data!.toString()).toBe('next');
    // a line of exactly `limit` bytes is still whole
    splitter.push(Buffer.concat([Buffer.alloc(limit, 0x42), Buffer.from('\n')]));
    expect(lines[2]!.data!.length).toBe(limit);
    expect(lines[2]!.head).toBeUndefined();
  });

  it('joins split lines in one reused buffer, and lets it go after a line longer than 64 KiB', () => {
    const { splitter, lines } = collect(1024 * 1024);
    const texts = ['{"a":1}', '{"b":"' + 'x'.repeat(5000) + '"}', '{"c":3}'];
    for (const t of texts) {
      splitter.push(Buffer.from(t.slice(0, 3)));
      splitter.push(Buffer.from(t.slice(3) + '\n'));
    }
    expect(lines.map((l) => l.data!.toString())).toEqual(texts);
    const kept = splitter.carryBytes;
    expect(kept).toBeGreaterThanOrEqual(5000);
    expect(kept).toBeLessThanOrEqual(64 * 1024);
    const big = 'y'.repeat(200 * 1024);
    splitter.push(Buffer.from(big.slice(0, 100)));
    splitter.push(Buffer.from(big.slice(100)));
    expect(splitter.carryBytes).toBeGreaterThan(64 * 1024);
    splitter.push(Buffer.from('\n'));
    expect(lines[3]!.data!.toString()).toBe(big);
    expect(splitter.carryBytes).toBe(0);
  });

  it('counts 100 MB without a newline while holding no more than the limit', () => {
    const limit = 1024 * 1024;
    for (const factory of [undefined, jsonShortener]) {
      const { splitter, lines } = collect(limit, factory);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const before = process.memoryUsage().arrayBuffers;
      let maxHeld = 0;
      const total = 100 * 1024 * 1024;
      for (let sent = 0; sent < total; sent += chunk.length) {
        splitter.push(chunk);
        maxHeld = Math.max(maxHeld, splitter.heldBytes);
        expect(splitter.pendingBytes).toBe(sent + chunk.length);
      }
      expect(maxHeld).toBe(limit);
      const grown = process.memoryUsage().arrayBuffers - before;
      expect(grown).toBeLessThan(32 * 1024 * 1024);
      splitter.end();
      expect(lines).toHaveLength(1);
      expect(lines[0]!.bytes).toBe(total);
      expect(lines[0]!.partial).toBe(true);
      expect(lines[0]!.head!.length).toBe(limit);
      expect(lines[0]!.shortened).toBeNull();
      expect(splitter.heldBytes).toBe(0);
    }
  });

  it('streams a 100 MB JSON line into the shortener and gets a small valid copy', () => {
    const limit = 1024 * 1024;
    const { splitter, lines } = collect(limit, jsonShortener);
    splitter.push(Buffer.from('{"result":{"content":[{"type":"text","text":"'));
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const n = 1600;
    for (let i = 0; i < n; i++) splitter.push(chunk);
    splitter.push(Buffer.from('"}]},"jsonrpc":"2.0","id":9}\n'));
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.partial).toBeUndefined();
    const msg = JSON.parse(line.shortened!);
    expect(msg.id).toBe(9);
    expect(msg.result.content[0].text).toMatch(new RegExp(`^A+…\\[truncated: ${n * chunk.length} bytes\\]$`));
    expect(Buffer.byteLength(line.shortened!)).toBeLessThan(limit);
  });
});
