import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/framing/line-splitter.js';
import { serializeRecord } from '../../src/log/serialize.js';
import type { Output } from '../../src/session/output.js';
import { Session } from '../../src/session/session.js';
import { handshake, harness, req, res } from './helpers/session-harness.js';

describe('lines on the wire', () => {
  it('embeds the exact message text as msg, with the size of the line in bytes', () => {
    const h = handshake(harness());
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"é","arguments":{"big":12345678901234567890}}}';
    h.push('client', text + '\n');
    const line = h.lines[h.lines.length - 1]!;
    expect(line.endsWith(`,"msg":${text}}\n`)).toBe(true);
    const r = h.last();
    expect(r).toMatchObject({ kind: 'request', id: 1, target: 'é', bytes: Buffer.byteLength(text) });
  });

  it('handles CRLF: the CR is counted in bytes but not part of msg', () => {
    const h = handshake(harness());
    const text = JSON.stringify(req(1, 'tools/list'));
    h.push('client', text + '\r\n');
    const r = h.last();
    expect(r).toMatchObject({ kind: 'request', id: 1, bytes: text.length + 1 });
    expect(h.lines[h.lines.length - 1]!.endsWith(`"msg":${text}}\n`)).toBe(true);
    expect(r.notes).toBeUndefined();
  });

  it('reassembles lines split across chunks, also inside multibyte characters', () => {
    const h = handshake(harness());
    const text = JSON.stringify(res(10, { content: [{ type: 'text', text: 'ünïcödé ✓ 😀' }] }));
    h.send('client', req(10, 'tools/call', { name: 'x' }));
    const bytes = Buffer.from(text + '\n' + JSON.stringify(res(11)) + '\n');
    h.send('client', req(11, 'ping'));
    for (let i = 0; i < bytes.length; i += 3) h.push('server', bytes.subarray(i, i + 3));
    const [a, b] = h.records.slice(-2);
    expect(a).toMatchObject({ kind: 'response', id: 10, method: 'tools/call', bytes: Buffer.byteLength(text) });
    expect((a!.msg as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe('ünïcödé ✓ 😀');
    expect(b).toMatchObject({ kind: 'response', id: 11, method: 'ping' });
    expect(h.codes()).toEqual([]);
  });

  it('records a last line without newline, marked partial', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/list'));
    h.push('server', JSON.stringify(res(1)));
    expect(h.records.at(-1)?.kind).not.toBe('response');
    h.end('server');
    const r = h.last();
    expect(r).toMatchObject({ kind: 'response', method: 'tools/list', partial: true });
    expect(r.notes?.map((n) => n.code)).toEqual(['partial-line']);
  });

  it('flags a non-JSON line on the server stdout, saying hosts will reject it', () => {
    const h = handshake(harness());
    h.push('server', 'Server listening on port 3000\n');
    const r = h.last();
    expect(r).toMatchObject({ from: 'server', kind: 'invalid', raw: 'Server listening on port 3000', bytes: 29 });
    expect(r.msg).toBeUndefined();
    expect(r.notes?.[0]?.code).toBe('stdout-not-json');
    expect(r.notes?.[0]?.text).toMatch(/hosts .*reject/);
  });

  it('flags an empty line and JSON-looking garbage', () => {
    const h = handshake(harness());
    h.push('server', '\n{"jsonrpc":\n');
    expect(h.records.slice(-2).map((r) => [r.kind, r.raw, r.notes?.[0]?.code])).toEqual([
      ['invalid', '', 'stdout-not-json'],
      ['invalid', '{"jsonrpc":', 'stdout-not-json'],
    ]);
  });

  it('flags a non-JSON line from the client', () => {
    const h = handshake(harness());
    h.push('client', 'hello\n');
    expect(h.last().notes?.map((n) => n.code)).toEqual(['stdin-not-json']);
  });

  it('keeps JSON that is not JSON-RPC as msg, kind invalid', () => {
    const h = handshake(harness());
    for (const text of ['42', '"hi"', 'null', '{"hello":"world"}', '{"jsonrpc":"1.0","id":1,"method":"x"}', '{"jsonrpc":"2.0","id":{},"method":"x"}', '{"jsonrpc":"2.0","method":7}']) {
      h.push('server', text + '\n');
      const r = h.last();
      expect(r.kind).toBe('invalid');
      expect(r.msg).toEqual(JSON.parse(text));
      expect(r.notes?.map((n) => n.code)).toEqual(['not-jsonrpc']);
    }
  });

  it('marks defective but recognisable messages: params not structured, malformed error object', () => {
    const h = handshake(harness());
    const r = h.send('client', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 5 });
    expect(r).toMatchObject({ kind: 'request', id: 1 });
    expect(r.notes?.map((n) => n.code)).toEqual(['not-jsonrpc']);
    const e = h.send('server', { jsonrpc: '2.0', id: 1, error: { code: 'bad' } });
    expect(e).toMatchObject({ kind: 'error', reqSeq: r.seq });
    expect(e.notes?.map((n) => n.code)).toEqual(['not-jsonrpc']);
  });

  it('flags invalid UTF-8 and does not embed the text verbatim', () => {
    const h = handshake(harness());
    const bytes = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]);
    h.push('server', bytes);
    const r = h.last();
    expect(r.kind).toBe('notification');
    expect(r.notes?.map((n) => n.code)).toEqual(['invalid-utf8']);
    expect((r.msg as { params: { data: string } }).params.data).toBe('\ufffd\ufffd');
  });

  it('records stderr lines as raw text without the line ending', () => {
    const h = harness();
    h.push('stderr', 'Starting server...\r\nwarn: x\n');
    expect(h.records.map((r) => [r.from, r.kind, r.raw, r.bytes])).toEqual([
      ['server', 'stderr', 'Starting server...', 19],
      ['server', 'stderr', 'warn: x', 7],
    ]);
    expect(h.codes()).toEqual([]);
  });
});

describe('large lines', () => {
  it('analyses the shortened copy of a JSON line over the limit, marked truncated', () => {
    const outs: Output[] = [];
    const s = new Session({ id: 't', maxLogBytes: 64 }, (o) => outs.push(o));
    const long = JSON.stringify(req(1, 'tools/call', { name: 'upload', data: 'A'.repeat(500) }));
    const shortened = JSON.stringify(req(1, 'tools/call', { name: 'upload', data: 'AAAA…[500 chars]' }));
    const sp = new LineSplitter(64, (l) => s.onLine('client', l, 1), () => ({ write() {}, finish: () => shortened }));
    const feed = (from: 'client' | 'server', m: unknown) => {
      const b = Buffer.from(JSON.stringify(m));
      s.onLine(from, { bytes: b.length, data: b }, 0);
    };
    feed('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    feed('server', res(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
    feed('client', { jsonrpc: '2.0', method: 'notifications/initialized' });
    outs.length = 0;
    sp.push(Buffer.from(long + '\n'));
    const rec = outs[0]!.record;
    expect(outs[0]!.msgText).toBeUndefined();
    expect(rec).toMatchObject({ kind: 'request', id: 1, method: 'tools/call', target: 'upload', bytes: long.length, truncated: true });
    expect(rec.msg).toEqual(JSON.parse(shortened));
    expect(rec.notes?.map((n) => n.code)).toEqual(['truncated']);
    const a = Buffer.from(JSON.stringify(res(1, { content: [] })));
    s.onLine('server', { bytes: a.length, data: a }, 2);
    expect(outs[1]!.record).toMatchObject({ reqSeq: rec.seq, method: 'tools/call' });
  });

  it('keeps the head of a non-JSON line over the limit as raw, bounded', () => {
    const outs: Output[] = [];
    const s = new Session({ id: 't', maxLogBytes: 100 }, (o) => outs.push(o));
    const sp = new LineSplitter(100, (l) => s.onLine('server', l, 1));
    sp.push(Buffer.from('x'.repeat(10_000) + '\n'));
    const rec = outs[0]!.record;
    expect(rec).toMatchObject({ kind: 'invalid', bytes: 10_000, truncated: true, raw: 'x'.repeat(100) });
    expect(rec.notes?.map((n) => n.code)).toEqual(['stdout-not-json', 'truncated']);
  });

  it('keeps every record under about twice the limit, even for control characters', () => {
    const limit = 1000;
    const outs: Output[] = [];
    const s = new Session({ id: 't', maxLogBytes: limit }, (o) => outs.push(o));
    const sp = new LineSplitter(limit, (l) => s.onLine('server', l, 1));
    const err = new LineSplitter(limit, (l) => s.onStderr(l, 1));
    sp.push(Buffer.alloc(limit, 0x01));
    sp.push(Buffer.from('\n'));
    sp.push(Buffer.alloc(50 * limit, 0x02));
    sp.push(Buffer.from('\n'));
    err.push(Buffer.alloc(50 * limit, 0x03));
    err.end();
    expect(outs).toHaveLength(3);
    for (const o of outs) {
      const size = Buffer.byteLength(serializeRecord(o.record, o.msgText));
      expect(size).toBeLessThan(2 * limit + 600);
      expect(o.record.truncated).toBe(true);
    }
  });
});
