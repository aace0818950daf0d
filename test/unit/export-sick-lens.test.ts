/**
 * Issue 28 §1 meets issues 29, 30 and 33: the sampled Markdown and HTML exports of a long HTTP-mode
 * session in which every request breaks its schema. The two passes run as export.ts runs them — each
 * through its own lens stage, the first with the context-cost fold — so the spec lens' schema-violation
 * notes are bad records like the analysis' own: the first PER_KEY stay and the rest are counted, per
 * code, in "… and N more schema-violation findings". The header keeps the session's context cost; HTTP
 * mode's records of plain exchanges are neither shown nor held (one per message in a long session),
 * while an exchange that was cut off is shown as an event.
 */
import { describe, expect, it } from 'vitest';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import { lensStage } from '../../src/lens/lenses.js';
import { isQuietExchange } from '../../src/log/http-records.js';
import { badKeysOf } from '../../src/log/keep-first.js';
import type { LogRecord } from '../../src/log/record.js';
import { renderReport } from '../../src/report/page.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { PER_KEY, SamplePlanner, SampleSelector, WINDOW } from '../../src/transcript/sampling.js';

const CALLS = 5000;
const TOOLS = [
  { name: 'search', description: 'Searches the index for documents matching a query.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
  { name: 'fetch', description: 'Fetches one document by id.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } } },
];

/** An HTTP-mode session: a tools/list, then CALLS tools/call without `name` (a schema violation), each exchange ending with its record; every 500th exchange cut off. */
function sick(): LogRecord[] {
  const out: LogRecord[] = [];
  let x = 0;
  const rec = (r: Partial<LogRecord>): LogRecord => {
    const seq = out.length + 1;
    const full = { v: 1, time: 1_000_000 + seq, session: 'h', seq, level: 30, ...r } as LogRecord;
    out.push(full);
    return full;
  };
  const exchange = (cut: boolean) =>
    rec({ from: 'proxy', kind: 'event', event: 'exchange', http: { method: 'POST', path: '/mcp', x: ++x, status: 200 }, started: 1_000_000 + out.length, timing: { request: 0.5, head: 1, end: 1.5 }, ...(cut ? { cut: true } : {}) } as Partial<LogRecord>);
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'sick-http', command: 'http://127.0.0.1:1/mcp', args: [] });
  const list = rec({ from: 'client', kind: 'request', id: 0, method: 'tools/list', msg: { jsonrpc: '2.0', id: 0, method: 'tools/list' } });
  rec({ from: 'server', kind: 'response', id: 0, method: 'tools/list', reqSeq: list.seq, ms: 1, msg: { jsonrpc: '2.0', id: 0, result: { tools: TOOLS } } });
  exchange(false);
  for (let i = 1; i <= CALLS; i++) {
    const q = rec({ from: 'client', kind: 'request', id: i, method: 'tools/call', msg: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { arguments: { q: `${i}` } } } });
    rec({ from: 'server', kind: 'response', id: i, method: 'tools/call', reqSeq: q.seq, ms: 1, msg: { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `result ${i}` }] } } });
    exchange(i % 500 === 0);
  }
  rec({ from: 'proxy', kind: 'event', event: 'end', pending: [], pendingCount: 0 });
  return out;
}

/** A record as read-log hands it to one pass: a fresh copy, through that pass's lens stage. */
const reader = () => {
  const stage = lensStage();
  return (r: LogRecord): LogRecord => stage.apply(structuredClone(r));
};

const count = (records: readonly LogRecord[], key: string) => records.filter((r) => badKeysOf(r).includes(key)).length;

describe('a sampled export of an HTTP session full of schema violations', async () => {
  const records = sick();
  const planner = new SamplePlanner(false, await loadTokenizer());
  const first = reader();
  for (const r of records) planner.add(first(r));
  const [plan] = planner.finish();
  const selector = new SampleSelector([plan!]);
  const second = reader();
  const kept = records.map(second).filter((r) => selector.take(r));
  const omitted = new Map(plan!.sample!.omitted.omitted().map((o) => [o.key, o.count]));

  it('keeps the first PER_KEY schema violations, and counts exactly those it leaves out', () => {
    expect(plan!.sample).not.toBeNull();
    const all = records.map(reader()).filter((r) => badKeysOf(r).includes('schema-violation'));
    expect(all).toHaveLength(CALLS);
    const shown = count(kept, 'schema-violation');
    expect(shown).toBeLessThan(2 * WINDOW);
    expect(shown + omitted.get('schema-violation')!).toBe(CALLS);
    const keptSeqs = new Set(kept.map((r) => r.seq));
    expect(all.slice(0, PER_KEY).every((r) => keptSeqs.has(r.seq))).toBe(true);
  });

  it('holds no record of a plain exchange, and keeps the exchanges that were cut off', () => {
    expect(kept.filter(isQuietExchange)).toEqual([]);
    expect(kept.filter((r) => r.kind === 'event' && r.event === 'exchange')).toHaveLength(CALLS / 500);
  });

  it('Markdown: the context cost, the sample notice with "… and N more schema-violation findings", no plain exchanges', () => {
    const md = renderMarkdown(kept, { redacted: true, exporterVersion: '0', plans: [plan!] });
    expect(md).toContain('# Context cost');
    expect(md).toMatch(/before the first message: [\d,]+ tokens — 2 tool definitions/);
    expect(md).toContain(`> - … and ${omitted.get('schema-violation')!.toLocaleString('en-US')} more schema-violation findings`);
    expect(md).toContain(`${kept.length.toLocaleString('en-US')} are shown`);
    expect((md.match(/HTTP exchange: cut off/g) ?? []).length).toBe(CALLS / 500);
    expect(md).not.toMatch(/HTTP exchange: \*/);
  });

  it('HTML: the context cost in the header, and the same count', () => {
    const html = renderReport(kept, { redacted: true, exporterVersion: '0', plans: [plan!] });
    expect(html).toContain('Before the first message');
    expect(html).toContain(`<li>… and ${omitted.get('schema-violation')!.toLocaleString('en-US')} more schema-violation findings</li>`);
  });
});
