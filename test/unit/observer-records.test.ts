/**
 * What the observer hands the log: records are valid JSON Lines even for messages that JSON.parse takes
 * but line readers or JSON.stringify do not (a CR inside, nesting beyond the stack), and seq never skips.
 */
import { describe, expect, it } from 'vitest';
import { Observer, preciseNow } from '../../src/proxy/observer.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { memorySink } from '../helpers/memory-sink.js';
import { MaskingSink } from '../../src/proxy/masking-sink.js';
import { EnvMasker } from '../../src/log/env-mask.js';

function observe(server: Buffer): { lines: string[]; records: Array<Record<string, unknown>>; warnings: string[] } {
  const sink = memorySink();
  const warnings: string[] = [];
  const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: (m) => warnings.push(m), shortener: jsonShortener, now: () => 1 });
  o.take('server', server, 1);
  void o.finish();
  const lines = sink.text().split('\n').filter((l) => l !== '');
  return { lines, records: lines.map((l) => JSON.parse(l) as Record<string, unknown>), warnings };
}

describe('observer: what the relay lost to the analysis', () => {
  const line = (i: number): string => `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${i}${'x'.repeat(200)}"}}\n`;
  const records = (sink: { text: () => string }) => sink.text().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a loss inside a line: the line in progress and the rest of the cut one are lost, counted, and the next line is analysed', () => {
    const sink = memorySink();
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    const two = line(1) + line(2);
    // the first line whole, the start of the second, then lost bytes that end inside a third
    o.take('server', Buffer.from(two.slice(0, line(1).length + 30)), 1);
    o.lost('server', { bytes: 500, lines: 1, endsLine: false }, 2);
    o.take('server', Buffer.from(`tail of the third"}}\n${line(4)}`), 3);
    const rs = records(sink);
    expect(rs.map((r) => r['kind'])).toEqual(['notification', 'event', 'notification']);
    expect(rs[1]).toMatchObject({ event: 'gap', reason: 'analysis-behind', stream: 'server', bytes: 500, lost: 2, time: 2 });
    expect(JSON.stringify(rs[2]!['msg'])).toContain('"data":"4x');
  });

  it('a line cut by one loss and ended in the next is counted once, also with kept bytes of it between', () => {
    const sink = memorySink();
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    // line 1 whole; then lost: lines 2 and 3 and the start of line 4
    o.take('server', Buffer.from(line(1)), 1);
    o.lost('server', { bytes: 600, lines: 2, endsLine: false }, 2);
    // kept, but the middle of line 4 (no line end): skipped
    o.take('server', Buffer.from('x'.repeat(50)), 3);
    // lost again: more of line 4 without its end (nothing new lost), then its end, line 5 and the start of line 6
    o.lost('server', { bytes: 40, lines: 0, endsLine: false }, 4);
    o.lost('server', { bytes: 300, lines: 2, endsLine: false }, 5);
    // the rest of line 6, then line 7
    o.take('server', Buffer.from(`tail of six"}}\n${line(7)}`), 6);
    const rs = records(sink);
    expect(rs.map((r) => r['kind'])).toEqual(['notification', 'event', 'event', 'event', 'notification']);
    const lost = rs.filter((r) => r['event'] === 'gap').map((r) => r['lost']);
    // 2, 3, 4 | nothing new | 5, 6: five lines lost, each counted once (1 and 7 were kept)
    expect(lost).toEqual([3, 0, 2]);
    expect(JSON.stringify(rs[4]!['msg'])).toContain('"data":"7x');
  });

  it('a loss that ended with a line end: the next bytes start a line of their own', () => {
    const sink = memorySink();
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    o.take('client', Buffer.from(line(1)), 1);
    o.lost('client', { bytes: 900, lines: 3, endsLine: true }, 2);
    o.take('client', Buffer.from(line(5)), 3);
    const rs = records(sink);
    expect(rs.map((r) => r['kind'])).toEqual(['notification', 'event', 'notification']);
    expect(rs[1]).toMatchObject({ event: 'gap', reason: 'analysis-behind', stream: 'client', lost: 3, level: 40 });
    expect(JSON.stringify(rs[2]!['msg'])).toContain('"data":"5x');
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

describe('observer: a line whose analysis fails', () => {
  it('keeps its first 4,096 characters in the gap record, says they are cut, and masks a secret whose start ends the cut', () => {
    const secret = 'sk-live-0123456789abcdef';
    const sink = memorySink();
    const masked = new MaskingSink(sink, new EnvMasker([{ name: 'API_KEY', value: secret }]));
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink: masked, warn: () => {}, now: () => 1 });
    // a bug in the analysis, planted: every line's analysis throws
    (o as unknown as { session: { onLine: () => void } }).session.onLine = () => {
      throw new Error('planted');
    };
    // the secret straddles character 4,096: its first 10 characters are all the cut keeps
    const long = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'x'.repeat(4096 - 10 - 68)}${secret}"}}`;
    expect(long.indexOf(secret)).toBe(4096 - 10);
    o.take('server', Buffer.from(`${long}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`), 1);
    void o.finish();
    const rs = sink.text().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    const gaps = rs.filter((r) => r['reason'] === 'analysis-error');
    expect(gaps).toHaveLength(2);
    expect(gaps[0]).toMatchObject({ event: 'gap', lost: 0, bytes: long.length, truncated: true });
    expect(gaps[0]!['raw']).not.toContain(secret.slice(0, 10));
    expect(gaps[0]!['raw']).toMatch(/\[REDACTED:env API_KEY\]$/);
    // a short line is kept whole: not marked
    expect(gaps[1]!['raw']).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(gaps[1]).not.toHaveProperty('truncated');
  });
});

describe('observer: the clock records are stamped with', () => {
  it('is epoch milliseconds (the time origin is the process\'s, read once) in whole microseconds', () => {
    const before = Date.now();
    const t = preciseNow();
    const after = Date.now();
    // the monotonic clock and the wall clock may drift apart a little over a process's life, never by a second here
    expect(t).toBeGreaterThan(before - 1000);
    expect(t).toBeLessThan(after + 1000);
    expect(Math.round(t * 1000) / 1000).toBe(t);
    expect(preciseNow()).toBeGreaterThanOrEqual(t);
  });
});

describe('observer: the end of a session', () => {
  it('lets the log settle first, so a loss it finds then (a file removed late) is reported before the end record', async () => {
    const base = memorySink();
    let found: { lost: number; reason: string } | null = null;
    const sink = { ...base, text: base.text, settle: async () => void (found = { lost: 3, reason: 'file-removed' }), takeLoss: () => {
      const l = found;
      found = null;
      return l;
    } };
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, now: () => 1 });
    o.take('client', Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'), 1);
    await o.finish();
    const records = sink.text().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r['event'] ?? r['kind'])).toEqual(['request', 'gap', 'end']);
    expect(records[1]).toMatchObject({ lost: 3, reason: 'file-removed' });
  });

  it('also through the masking sink in front of the log (a session with secrets to mask)', async () => {
    let settled = 0;
    const inner = { ...memorySink(), settle: async () => void settled++ };
    const masked = new MaskingSink(inner, new EnvMasker([{ name: 'API_TOKEN', value: 'sk-live-0123456789abcdef' }]));
    const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink: masked, warn: () => {}, now: () => 1 });
    await o.finish();
    expect(settled).toBe(1);
  });
});
