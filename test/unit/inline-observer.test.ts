/**
 * The analysis on the relay's own thread (a run with nothing beside the log): it runs after the relay
 * has had its turn and before any event that follows; past 1 MiB waiting the protocol streams are
 * analysed at once (memory bounded, nothing lost); a flood of the server's stderr never slows the relay:
 * past the bound it is dropped, said once, and counted in the log where it was.
 */
import { describe, expect, it } from 'vitest';
import { Observer } from '../../src/proxy/observer.js';
import { InlineObserver } from '../../src/proxy/inline-observer.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { memorySink } from '../helpers/memory-sink.js';

/** `slowMs`: every chunk's analysis takes at least that long (an analysis slower than the flood). */
function setup(slowMs = 0) {
  const sink = memorySink();
  const warnings: string[] = [];
  const observer = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink, warn: () => {}, shortener: jsonShortener, now: () => 1 });
  const stats = { takes: 0 };
  const take = observer.take.bind(observer);
  observer.take = (stream, chunk, time) => {
    stats.takes++;
    const until = performance.now() + slowMs;
    while (performance.now() < until);
    take(stream, chunk, time);
  };
  const inline = new InlineObserver(observer, { warn: (m) => warnings.push(m), now: () => 1 });
  const records = () =>
    sink
      .text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { inline, records, warnings, sink, stats };
}

const line = (i: number): string => `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${i}${'x'.repeat(200)}"}}\n`;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('analysis on the relay thread', () => {
  it('analyses after the relay has had its turn, and before any event that follows', async () => {
    const t = setup();
    t.inline.fromServer(Buffer.from(line(1) + line(2)));
    expect(t.sink.text()).toBe(''); // nothing yet: the chunk waits for setImmediate
    t.inline.event('signal', { signal: 'SIGTERM' });
    expect(t.records().map((r) => r['kind'])).toEqual(['notification', 'notification', 'event']);
    t.inline.fromServer(Buffer.from(line(3)));
    await turn();
    expect(t.sink.text()).toContain('"data":"3x');
  });

  it('the end of a stream comes after what waits: a torn last line is still logged, in order', () => {
    const t = setup();
    t.inline.fromServer(Buffer.from(line(1)));
    t.inline.fromServer(Buffer.from('{"jsonrpc":"2.0","method":"notifications/mess'));
    t.inline.endOf('server');
    const rs = t.records();
    expect(rs.map((r) => r['kind'])).toEqual(['notification', 'invalid']);
    expect(rs[1]).toMatchObject({ partial: true });
  });

  it('catches up at once when more than 1 MiB of the protocol waits (memory stays bounded, nothing dropped)', () => {
    const t = setup();
    const chunk = Buffer.from(Array.from({ length: 256 }, (_, i) => line(i)).join('')); // ~56 KiB
    for (let i = 0; i < 20; i++) t.inline.fromServer(chunk); // ~1.1 MiB, with no turn of the event loop
    const records = t.records().length;
    const waitingBytes = ((20 * 256 - records) / 256) * chunk.length;
    expect(records).toBeGreaterThan(0);
    expect(waitingBytes).toBeLessThanOrEqual(1024 * 1024);
    expect(t.warnings).toEqual([]);
  });

  it('a stderr flood is never analysed at once: past the bound it is dropped, said once, and counted where it was', async () => {
    const t = setup();
    const err = Buffer.from(Array.from({ length: 100 }, (_, i) => `log line ${i} ${'e'.repeat(90)}\n`).join('')); // ~10 KiB
    t.inline.fromServer(Buffer.from(line(1)));
    for (let i = 0; i < 150; i++) t.inline.fromStderr(err); // ~1.5 MiB in one turn
    // nothing was analysed in the relay's turn: the relay read on
    expect(t.sink.text()).toBe('');
    t.inline.fromServer(Buffer.from(line(2)));
    expect(t.warnings).toEqual([expect.stringMatching(/the server writes to stderr faster than it can be analysed; the relay goes on/)]);
    // the analysis takes a slice a turn; a loaded machine needs more turns, so wait on the record, not a count
    for (const until = Date.now() + 10_000; Date.now() < until && t.records().at(-1)?.['kind'] !== 'notification'; ) await turn();
    const rs = t.records();
    const kept = rs.filter((r) => r['kind'] === 'stderr').length;
    const gap = rs.find((r) => r['event'] === 'gap')!;
    expect(gap).toMatchObject({ reason: 'analysis-behind', stream: 'stderr' });
    expect(kept + (gap['lost'] as number)).toBe(150 * 100);
    expect((gap['bytes'] as number) + kept * (err.length / 100)).toBe(150 * err.length);
    // the count stands after the stderr lines kept and before the message that came after the flood
    const at = rs.indexOf(gap);
    expect(rs.slice(0, at).filter((r) => r['kind'] === 'stderr')).toHaveLength(kept);
    expect(rs[rs.length - 1]).toMatchObject({ kind: 'notification' });
    expect(JSON.stringify(rs[rs.length - 1]!['msg'])).toContain('"data":"2x');
  });

  it('a stderr flood faster than its analysis: one slice a turn, so the relay keeps its pace; past the bound the rest is dropped and counted', async () => {
    const t = setup(0.5);
    const err = Buffer.from(Array.from({ length: 100 }, (_, i) => `log line ${i} ${'e'.repeat(90)}\n`).join('')); // ~10 KiB
    let most = 0;
    for (let i = 0; i < 300; i++) {
      // two chunks a turn arrive, the analysis takes one: it falls behind
      t.inline.fromStderr(err);
      t.inline.fromStderr(err);
      const before = t.stats.takes;
      await turn();
      most = Math.max(most, t.stats.takes - before);
    }
    // a slice is ~0.2 ms: one slow chunk ends it, however much waits
    expect(most).toBe(1);
    t.inline.endOf('stderr');
    const rs = t.records();
    const kept = rs.filter((r) => r['kind'] === 'stderr').length;
    const lost = rs.filter((r) => r['event'] === 'gap').reduce((n, r) => n + (r['lost'] as number), 0);
    expect(rs.filter((r) => r['event'] === 'gap').every((r) => r['reason'] === 'analysis-behind' && r['stream'] === 'stderr')).toBe(true);
    expect(lost).toBeGreaterThan(0);
    expect(kept + lost).toBe(300 * 2 * 100);
    expect(t.warnings).toHaveLength(1);
  });

  it('small slow chunks (one message each, as a host sends) end a slice after a few: the clock is not read per chunk, but soon', async () => {
    const t = setup(0.5);
    // 60 one-message chunks of ~230 bytes wait: ~14 KiB, far below the byte bound of a clock reading
    for (let i = 0; i < 60; i++) t.inline.fromServer(Buffer.from(line(i)));
    let most = 0;
    while (t.stats.takes < 60) {
      const before = t.stats.takes;
      await turn();
      most = Math.max(most, t.stats.takes - before);
    }
    // a slice is ~0.2 ms and each chunk takes 0.5: a turn analyses at most the 4 chunks between clock readings
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4);
    expect(t.records().filter((r) => r['kind'] === 'notification')).toHaveLength(60);
  });
});
