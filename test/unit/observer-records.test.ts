/**
 * What the observer hands the log: records are valid JSON Lines even for messages that JSON.parse takes
 * but line readers or JSON.stringify do not (a CR inside, nesting beyond the stack), and seq never skips.
 */
import { describe, expect, it } from 'vitest';
import { Observer, type RecordSink } from '../../src/proxy/observer.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';

function memorySink(): RecordSink & { text: () => string } {
  const parts: string[] = [];
  return {
    text: () => parts.join(''),
    write(text, body) {
      parts.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`);
      return true;
    },
    takeLoss: () => null,
    close: () => {},
  };
}

function observe(server: Buffer): { lines: string[]; records: Array<Record<string, unknown>>; warnings: string[] } {
  const sink = memorySink();
  const warnings: string[] = [];
  const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: (m) => warnings.push(m), shortener: jsonShortener, now: () => 1 });
  o.fromServer(server);
  void o.finish();
  const lines = sink.text().split('\n').filter((l) => l !== '');
  return { lines, records: lines.map((l) => JSON.parse(l) as Record<string, unknown>), warnings };
}

describe('observer: analysis beside the relay', () => {
  const line = (i: number): string => `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${i}${'x'.repeat(200)}"}}\n`;

  it('analyses after the relay has had its turn, and before any event that follows', async () => {
    const sink = memorySink();
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    o.fromServer(Buffer.from(line(1) + line(2)));
    expect(sink.text()).toBe(''); // nothing yet: the chunk waits for setImmediate
    o.event('signal', { signal: 'SIGTERM' });
    const kinds = sink.text().split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds).toEqual(['notification', 'notification', 'event']);
    o.fromServer(Buffer.from(line(3)));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(sink.text()).toContain('"data":"3x');
  });

  it('catches up at once when more than 1 MiB waits (memory stays bounded)', () => {
    const sink = memorySink();
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    const chunk = Buffer.from(Array.from({ length: 256 }, (_, i) => line(i)).join('')); // ~74 KiB
    for (let i = 0; i < 20; i++) o.fromServer(chunk); // ~1.5 MiB, with no turn of the event loop
    const records = sink.text().split('\n').filter((l) => l !== '').length;
    const waitingBytes = ((20 * 256 - records) / 256) * chunk.length;
    expect(records).toBeGreaterThan(0);
    expect(waitingBytes).toBeLessThanOrEqual(1024 * 1024);
  });
});

describe('observer records', () => {
  it('never writes a raw CR: a message with CR as JSON whitespace is re-serialized', () => {
    const { lines, records } = observe(Buffer.from('{"jsonrpc":"2.0",\r"method":"notifications/message","params":{}}\n{"jsonrpc":"2.0","method":"a","params":{}}\r\r\n'));
    expect(lines.join('\n')).not.toContain('\r');
    const msgs = records.filter((r) => r.from === 'server');
    expect(msgs).toHaveLength(2);
    expect(msgs[0]!.msg).toEqual({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(msgs[1]!.msg).toEqual({ jsonrpc: '2.0', method: 'a', params: {} });
  });

  it('keeps seq consecutive when a message cannot be serialized again (invalid UTF-8, nested beyond the stack)', () => {
    const deep = '['.repeat(20000) + ']'.repeat(20000);
    const line = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"x","params":{"a":"'), Buffer.from([0xff]), Buffer.from(`","b":${deep}}}\n`)]);
    const { records } = observe(Buffer.concat([line, Buffer.from('{"jsonrpc":"2.0","method":"y"}\n')]));
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    const bad = records.find((r) => r.method === 'x')!;
    expect(bad.msg).toBeUndefined();
    expect((bad.notes as Array<{ code: string }>).map((n) => n.code)).toContain('analysis-error');
    expect(records.at(-1)).toMatchObject({ event: 'end' });
  });
});
