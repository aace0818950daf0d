/**
 * issue 28 §6: the live UI under a flood its page reads slower than it comes. The event stream holds at
 * most maxQueuedBytes for the page; rows past that are counted per session and announced in a `skipped`
 * event once the page reads again, so every row is either delivered or counted, never dropped silently.
 * In-process: the handler with a watch that emits row batches while nobody reads the stream.
 */
import { describe, expect, it } from 'vitest';
import { makeUiHandler, type WatchView } from '../../src/ui/handler.js';
import type { LiveEvent } from '../../src/ui/live-row.js';
import type { SessionRow } from '../../src/session-view/row.js';

const PORT = 43211;
const TOKEN = 'flood-token-0123456789';

/** A watch whose increments the test emits by hand. */
function fakeWatch(): WatchView & { emit: (ev: LiveEvent) => void } {
  const listeners = new Set<(ev: LiveEvent) => void>();
  return {
    logs: ['/nowhere/flood.jsonrpc.log'],
    snapshot: () => ({ type: 'hello', cards: [] }),
    problemList: () => [],
    on(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (ev) => {
      for (const l of listeners) l(ev);
    },
  };
}

const rows = (from: number, n: number): SessionRow[] =>
  Array.from({ length: n }, (_, i) => ({ s: from + i, t: 1_767_258_000_000 + from + i, f: 's', k: 'notification', m: 'notifications/message', b: 120 }));

/** The events of an SSE text. */
const parse = (text: string): LiveEvent[] =>
  text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => JSON.parse(b.slice(6)) as LiveEvent);

describe('ui event stream under a flood', () => {
  it('holds a bounded queue for a slow page and counts the rows it did not send', async () => {
    const watch = fakeWatch();
    const handle = makeUiHandler({ token: TOKEN, port: PORT, watch, page: { html: '', csp: '' }, maxQueuedBytes: 256 * 1024 });
    const res = await handle(new Request(`http://127.0.0.1:${PORT}/api/events?token=${TOKEN}`, { headers: { host: `127.0.0.1:${PORT}` } }));
    const reader = res.body!.getReader();
    // 200 batches of 500 rows (~10 MB of events) while the page reads nothing
    let seq = 1;
    for (let i = 0; i < 200; i++) {
      watch.emit({ type: 'rows', log: 0, session: 's1', rows: rows(seq, 500) });
      seq += 500;
    }
    const emitted = seq - 1;
    // the page reads again: what was queued, then the count of what was not
    let text = '';
    const dec = new TextDecoder();
    let events: LiveEvent[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
      events = parse(text);
      // the notice, or (when nothing was held back) the last row of the flood
      if (events.some((e) => e.type === 'skipped') || text.includes(`"s":${emitted},`)) break;
    }
    // a row after the flood arrives after the notice
    watch.emit({ type: 'rows', log: 0, session: 's1', rows: rows(seq, 1) });
    while (!parse(text).some((e) => e.type === 'rows' && e.rows.some((r) => r.s === seq))) text += dec.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    events = parse(text);
    const delivered = events.flatMap((e) => (e.type === 'rows' ? e.rows.map((r) => r.s) : []));
    const skipped = events.filter((e): e is Extract<LiveEvent, { type: 'skipped' }> => e.type === 'skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ log: 0, session: 's1' });
    // a bounded part was queued, the rest counted: together every row, each once
    expect(delivered.length).toBeLessThan(emitted / 4);
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(delivered.length - 1 + skipped[0]!.rows).toBe(emitted);
    // the notice comes before the row that followed the flood
    const at = events.findIndex((e) => e.type === 'skipped');
    const after = events.findIndex((e) => e.type === 'rows' && e.rows.some((r) => r.s === seq));
    expect(at).toBeLessThan(after);
  });
});
