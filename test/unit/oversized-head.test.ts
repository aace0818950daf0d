/**
 * One rule for a line or SSE event larger than the log limit (issue 27): the log's copy keeps its first
 * `limit` bytes, its true size and the shortened JSON, however the bytes were cut into chunks, in the
 * stdio line splitter and the SSE parser alike. Exactly `limit` bytes are kept whole; one more is cut.
 */
import { describe, expect, it } from 'vitest';
import { LineSplitter, type Line } from '../../src/framing/line-splitter.js';
import { SseFrames } from '../../src/http/sse-frames.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { split } from '../helpers/split.js';

interface Kept {
  bytes: number;
  data?: string;
  head?: string;
  shortened?: string | null;
}

const copy = (l: Line): Kept => {
  const k: Kept = { bytes: l.bytes };
  if (l.data !== undefined) k.data = l.data.toString('latin1');
  if (l.head !== undefined) k.head = l.head.toString('latin1');
  if (l.shortened !== undefined) k.shortened = l.shortened;
  return k;
};

function viaSplitter(payload: Buffer, limit: number, chunks: (b: Buffer) => Buffer[]): Kept[] {
  const out: Kept[] = [];
  const s = new LineSplitter(limit, (l) => out.push(copy(l)), jsonShortener);
  for (const c of chunks(Buffer.concat([payload, Buffer.from('\n')]))) s.push(c);
  s.end();
  return out;
}

function viaSse(payload: Buffer, limit: number, chunks: (b: Buffer) => Buffer[]): Kept[] {
  const out: Kept[] = [];
  const f = new SseFrames(limit, (e) => out.push(copy(e.data)), jsonShortener);
  for (const c of chunks(Buffer.concat([Buffer.from('event: message\ndata: '), payload, Buffer.from('\n\n')]))) f.push(c);
  f.end();
  return out;
}

/** A JSON-RPC answer of exactly `size` bytes (a long string of digits, so every head is recognisable). */
function answer(size: number): Buffer {
  const shell = '{"jsonrpc":"2.0","id":7,"result":{"blob":""}}';
  let blob = '';
  for (let i = 0; blob.length < size - shell.length; i++) blob += String(i % 10);
  return Buffer.from(`{"jsonrpc":"2.0","id":7,"result":{"blob":"${blob}"}}`);
}

const chunkings: Record<string, (b: Buffer) => Buffer[]> = {
  'one chunk': (b) => [b],
  '64 KiB chunks': (b) => split(b, Array.from({ length: Math.ceil(b.length / 65536) }, (_, i) => (i + 1) * 65536)),
  '4 KiB chunks': (b) => split(b, Array.from({ length: Math.ceil(b.length / 4096) }, (_, i) => (i + 1) * 4096)),
  'uneven chunks': (b) => split(b, [1, 7, 4095, 4097, 70_000, 300_001, 1_048_590]),
};

describe('a line or event past the log limit', () => {
  const MiB = 1024 * 1024;
  for (const [name, cut] of Object.entries(chunkings)) {
    it(`keeps the first limit bytes (1 MiB) as its head, in both framings: ${name}`, () => {
      const payload = answer(MiB + 5000);
      for (const kept of [viaSplitter(payload, MiB, cut), viaSse(payload, MiB, cut)]) {
        expect(kept).toHaveLength(1);
        const k = kept[0]!;
        expect(k.bytes).toBe(MiB + 5000);
        expect(k.data).toBeUndefined();
        expect(k.head).toBe(payload.subarray(0, MiB).toString('latin1'));
        expect(JSON.parse(k.shortened!)).toMatchObject({ jsonrpc: '2.0', id: 7 });
      }
    });
  }

  it('exactly at the limit is kept whole; one byte over keeps the limit as head and shortens', () => {
    const limit = 4096 * 3;
    for (const cut of Object.values(chunkings)) {
      const at = answer(limit);
      for (const kept of [viaSplitter(at, limit, cut), viaSse(at, limit, cut)]) expect(kept).toEqual([{ bytes: limit, data: at.toString('latin1') }]);
      const over = answer(limit + 1);
      for (const kept of [viaSplitter(over, limit, cut), viaSse(over, limit, cut)]) {
        expect(kept).toHaveLength(1);
        expect(kept[0]!.bytes).toBe(limit + 1);
        expect(kept[0]!.data).toBeUndefined();
        expect(kept[0]!.head).toBe(over.subarray(0, limit).toString('latin1'));
        expect(JSON.parse(kept[0]!.shortened!)).toMatchObject({ id: 7 });
      }
    }
  });

  it('an SSE event whose data lines join past the limit keeps the joined head (LF as a space)', () => {
    const limit = 2048;
    const a = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"t":"${'a'.repeat(1500)}",`);
    const b = Buffer.from(`"u":"${'b'.repeat(1500)}"}}`);
    const out: Kept[] = [];
    const f = new SseFrames(limit, (e) => out.push(copy(e.data)), jsonShortener);
    f.push(Buffer.concat([Buffer.from('data: '), a, Buffer.from('\ndata: '), b, Buffer.from('\n\n')]));
    expect(out).toHaveLength(1);
    expect(out[0]!.bytes).toBe(a.length + 1 + b.length);
    expect(out[0]!.head).toBe(Buffer.concat([a, Buffer.from(' '), b]).subarray(0, limit).toString('latin1'));
  });
});
