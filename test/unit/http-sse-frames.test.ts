/**
 * SSE framing for the log's copy: events split exactly as the SSE spec says (CRLF, LF or CR line ends,
 * one leading space dropped, data lines joined, comments and unknown fields ignored), whatever the chunk
 * boundaries; long data bounded with the shortener.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseFrames, type SseEvent } from '../../src/http/sse-frames.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { split } from '../helpers/split.js';

interface Seen {
  type?: string;
  id?: string;
  data: string;
  bytes: number;
}

function parse(chunks: Buffer[], limit = 1 << 20): Seen[] {
  const out: Seen[] = [];
  const f = new SseFrames(limit, (e: SseEvent) => {
    const s: Seen = { data: (e.data.data ?? e.data.head!).toString('utf8'), bytes: e.data.bytes };
    if (e.type !== undefined) s.type = e.type;
    if (e.id !== undefined) s.id = e.id;
    out.push(s);
  }, jsonShortener);
  for (const c of chunks) f.push(c);
  f.end();
  return out;
}

describe('SseFrames', () => {
  it('splits the SDK shape of events: event, id, data, blank line', () => {
    const text = 'event: message\nid: ev-1\ndata: {"a":1}\n\nid: ev-2\ndata: {"b":2}\n\n';
    expect(parse([Buffer.from(text)])).toEqual([
      { type: 'message', id: 'ev-1', data: '{"a":1}', bytes: 7 },
      { id: 'ev-2', data: '{"b":2}', bytes: 7 },
    ]);
  });

  it('follows the spec: CR and CRLF line ends, no space after the colon, multi-line data, comments, unknown fields', () => {
    const text = ': keep-alive\r\nretry: 10\r\nfoo: bar\r\ndata:{"x":\rdata: 1}\r\n\r\n';
    // data lines join with LF, which the copy turns into a space (JSON whitespace) for one log line
    expect(parse([Buffer.from(text)])).toEqual([{ data: '{"x": 1}', bytes: 8 }]);
  });

  it('treats CRLF as one line end, also when a chunk ends between CR and LF', () => {
    const text = Buffer.from('data: {"a":\r\ndata: 1}\r\n\r\n');
    const want = [{ data: '{"a": 1}', bytes: 8 }];
    expect(parse([text])).toEqual(want);
    expect(parse(split(text, [12, 13]))).toEqual(want);
  });

  it('ignores an id field that holds a NUL, keeping the event and an earlier id of it', () => {
    expect(parse([Buffer.from('id: a\0b\ndata: {"n":1}\n\nid: ok-1\nid: x\0\ndata: {"n":2}\n\n')])).toEqual([
      { data: '{"n":1}', bytes: 7 },
      { id: 'ok-1', data: '{"n":2}', bytes: 7 },
    ]);
  });

  it('drops an event without data and an event cut off by the end of the stream', () => {
    expect(parse([Buffer.from('id: p\ndata: \n\nevent: x\n\ndata: {"torn":1}\n')])).toEqual([]);
  });

  it('keeps a long data value bounded: its head, the true size, and the shortened JSON', () => {
    const big = `{"jsonrpc":"2.0","id":1,"result":{"blob":"${'x'.repeat(5000)}"}}`;
    const seen: SseEvent[] = [];
    const f = new SseFrames(1024, (e) => seen.push(e), jsonShortener);
    f.push(Buffer.from(`data: ${big}\n\n`));
    expect(seen).toHaveLength(1);
    const line = seen[0]!.data;
    expect(line.bytes).toBe(big.length);
    expect(line.data).toBeUndefined();
    expect(line.head!.length).toBe(1024);
    expect(JSON.parse(line.shortened!)).toMatchObject({ jsonrpc: '2.0', id: 1 });
  });

  it('gives the same events however the stream is cut into chunks (property)', () => {
    const field = fc.constantFrom('data', 'event', 'id', 'retry', '', 'x');
    const value = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '{', '"', 'é', '1') });
    const eol = fc.constantFrom('\n', '\r', '\r\n');
    const lineArb = fc.tuple(field, fc.boolean(), value, eol).map(([f, sp, v, e]) => `${f}:${sp ? ' ' : ''}${v}${e}`);
    const stream = fc.array(fc.oneof(lineArb, eol), { maxLength: 40 }).map((parts) => Buffer.from(parts.join('')));
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 12 }), (buf, cuts) => {
        const whole = parse([buf]);
        expect(parse(split(buf, cuts))).toEqual(whole);
        // byte at a time too: every boundary, including between CR and LF
        expect(parse([...buf].map((b) => Buffer.of(b)))).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });
});
