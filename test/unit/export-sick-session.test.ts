/**
 * issue 28 §1: the Markdown and HTML exports of a long session in which every record is bad hold the
 * first PER_KEY of each finding code (whatever stage added it), of each error code, of isError results
 * and of invalid lines — not every bad record — and say, per key, exactly how many they left out
 * ("… and N more before-initialize findings"). In memory: the two passes of src/transcript/sampling.ts
 * and the renderers.
 */
import { describe, expect, it } from 'vitest';
import { badKeysOf } from '../../src/log/keep-first.js';
import type { LogRecord } from '../../src/log/record.js';
import { renderReport } from '../../src/report/page.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { PER_KEY, SamplePlanner, SampleSelector, WINDOW, type SessionPlan } from '../../src/transcript/sampling.js';

const PAIRS = 6000;
const BEFORE = { code: 'before-initialize', text: 'the client sent tools/call before the server answered initialize' };
const LENS = { code: 'lens-made-up', text: 'a lens finding' };

/** No initialize; every request a finding (every fifth a lens' too); answers alternate between two error codes and isError results; a few invalid lines. */
function sick(): LogRecord[] {
  const out: LogRecord[] = [];
  let seq = 0;
  const rec = (r: Partial<LogRecord>): LogRecord => {
    const x = { v: 1, time: 1000 + seq, session: 's', seq: ++seq, ...r } as LogRecord;
    out.push(x);
    return x;
  };
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'sick', command: 'node', args: [] });
  for (let i = 1; i <= PAIRS; i++) {
    const q = rec({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: 'echo', notes: i % 5 === 0 ? [BEFORE, LENS] : [BEFORE], msg: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo' } } });
    if (i % 3 === 0) rec({ from: 'server', kind: 'response', id: i, method: 'tools/call', reqSeq: q.seq, ms: 1, isError: true, msg: { jsonrpc: '2.0', id: i, result: { content: [], isError: true } } });
    else rec({ from: 'server', kind: 'error', id: i, method: 'tools/call', reqSeq: q.seq, ms: 1, msg: { jsonrpc: '2.0', id: i, error: { code: i % 2 === 0 ? -32603 : -32000, message: `boom ${i}` } } });
    if (i % 20 === 0) rec({ from: 'server', kind: 'invalid', raw: `not json ${i}` });
  }
  rec({ from: 'proxy', kind: 'event', event: 'end', pending: [], pendingCount: 0 });
  return out;
}

/** Both passes of a sampled export: the plan and the records kept. */
function sample(records: readonly LogRecord[]): { plan: SessionPlan; kept: LogRecord[] } {
  const planner = new SamplePlanner();
  for (const r of records) planner.add(r);
  const [plan] = planner.finish();
  const selector = new SampleSelector([plan!]);
  const kept = records.filter((r) => selector.take(r));
  return { plan: plan!, kept };
}

/** Bad records by key. */
function byKey(records: readonly LogRecord[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of records) for (const k of badKeysOf(r)) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

describe('a sampled export of a session where every record is bad', () => {
  const records = sick();
  const { plan, kept } = sample(records);

  it('keeps the windows, the first of each key and the sample — not every bad record', () => {
    expect(plan.sample).not.toBeNull();
    expect(kept.length).toBeLessThan(2 * WINDOW + 8 * PER_KEY + 2 * (PAIRS / plan.sample!.every) + 50);
    const shown = byKey(kept);
    for (const k of ['before-initialize', 'lens-made-up', 'error -32603', 'error -32000', 'isError', 'invalid']) expect(shown.get(k), k).toBeGreaterThanOrEqual(PER_KEY);
    // past the first window, the first PER_KEY of each key stay (the middle keeps only those and the sample)
    const firstBad = records.slice(0, 2 * WINDOW).filter((r) => badKeysOf(r).includes('invalid'));
    expect(firstBad.every((r) => kept.includes(r))).toBe(true);
  });

  it('counts exactly what it leaves out, per key', () => {
    const all = byKey(records);
    const shown = byKey(kept);
    const omitted = new Map(plan.sample!.omitted.omitted().map((o) => [o.key, o.count]));
    for (const [k, n] of all) expect((shown.get(k) ?? 0) + (omitted.get(k) ?? 0), k).toBe(n);
    expect(omitted.get('before-initialize')).toBeGreaterThan(PAIRS / 2);
  });

  it('Markdown and HTML say "… and N more" for each key', () => {
    const omitted = new Map(plan.sample!.omitted.omitted().map((o) => [o.key, o.count]));
    const n = (k: string) => omitted.get(k)!.toLocaleString('en-US');
    const md = renderMarkdown(kept, { redacted: true, exporterVersion: '0', plans: [plan] });
    expect(md).toContain(`> - … and ${n('before-initialize')} more before-initialize findings`);
    expect(md).toContain(`> - … and ${n('lens-made-up')} more lens-made-up findings`);
    expect(md).toContain(`> - … and ${n('error -32603')} more error answers with code -32603`);
    expect(md).toContain(`> - … and ${n('isError')} more isError results`);
    expect(md).toContain(`> - … and ${n('invalid')} more invalid lines`);
    expect(md).toContain(`the first ${PER_KEY} of each finding code, error code, isError results and invalid lines`);
    // the summary counts the whole session
    expect(md).toContain(`| Error responses | ${records.filter((r) => r.kind === 'error').length} |`);
    const html = renderReport(kept, { redacted: true, exporterVersion: '0', plans: [plan] });
    expect(html).toContain(`<li>… and ${n('before-initialize')} more before-initialize findings</li>`);
    expect(html).toContain(`<li>… and ${n('error -32000')} more error answers with code -32000</li>`);
  });
});
