/**
 * Every reader runs the lens stage: a probe lens that notes each tools/call answer (with something only the
 * body holds) shows up in tail (whole log, -n, -f), stats, the exports, check's facts, ls, the live UI's
 * cards, rows and bodies — and readers that read envelopes still get records without `msg`. The stage
 * itself keeps one lens per session, closes it at `end`, and holds at most its bound of open sessions.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/check/evaluate.js';
import { gatherNeedsBody } from '../../src/check/gather.js';
import { readFacts } from '../../src/check/read-facts.js';
import { LensStage } from '../../src/lens/apply-lenses.js';
import type { LensKind } from '../../src/lens/lens.js';
import { readRecords } from '../../src/log/read-log.js';
import type { LogRecord } from '../../src/log/record.js';
import { listSessions } from '../../src/log/session-summary.js';
import { jsonlChunks } from '../../src/transcript/json-export.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { collect, openInput } from '../../src/transcript/read-input.js';
import { StatsBuilder, statsNeedsBody } from '../../src/transcript/stats.js';
import { LogWatch } from '../../src/ui/log-watch.js';
import { findRecord, sessionRowLines } from '../../src/ui/read-session.js';
import type { SessionRow } from '../../src/session-view/row.js';
import { runTailAll } from '../../src/view/tail-all.js';
import { runTail } from '../../src/view/tail-run.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const LOG = join(ROOT, 'test', 'fixtures', 'logs', 'check-clean.jsonl');
/** tools/call answers of check-clean.jsonl: seq 10 and 12. */
const PROBED = [10, 12];

/** Notes every tools/call answer with the type of its first content item (so it must have read the body). */
const probe: LensKind = {
  id: 'probe',
  codes: { 'lens-probe': 'a test lens saw a tools/call answer' },
  create: () => {
    let seen = 0;
    return {
      needsBody: (h) => h.kind === 'response' && h.method === 'tools/call',
      observe: (r) => {
        if (r.kind !== 'response' || r.method !== 'tools/call') return [];
        const content = (r.msg as { result?: { content?: Array<{ type?: string }> } } | undefined)?.result?.content;
        return [{ code: 'lens-probe', text: `probe #${++seen} saw ${content?.[0]?.type ?? 'no body'}` }];
      },
    };
  },
};
const lenses = [probe];

async function tail(opts: { lines?: number; json?: boolean } = {}): Promise<string> {
  let out = '';
  await runTail(
    { file: LOG, follow: false, session: 'last', full: false, json: opts.json ?? false, filter: {}, color: 0, lines: opts.lines, lenses },
    { write: (t) => void (out += t), warn: () => {} },
  );
  return out;
}

describe('lens notes in every reader', () => {
  it('tail shows them on the line, with the body the lens read (whole log and -n)', async () => {
    for (const out of [await tail(), await tail({ lines: 10 })]) {
      expect(out).toContain('⚠ probe #1 saw text [lens-probe]');
      expect(out).toContain('⚠ probe #2 saw text [lens-probe]');
    }
  });

  it('tail --json carries them in notes, with the warning level', async () => {
    const recs = (await tail({ json: true })).trim().split('\n').map((l) => JSON.parse(l) as LogRecord);
    expect(recs.filter((r) => r.notes).map((r) => [r.seq, r.notes])).toEqual(PROBED.map((seq, i) => [seq, [{ code: 'lens-probe', text: `probe #${i + 1} saw text` }]]));
  });

  it('tail -f and tail --all show them', async () => {
    const { dir, cleanup } = tempDir('mcp-tap-lens-');
    try {
      const log = join(dir, 'live.jsonrpc.log');
      copyFileSync(LOG, log);
      const ac = new AbortController();
      let out = '';
      const run = runTail(
        { file: log, follow: true, session: 'last', full: false, json: false, filter: {}, color: 0, lines: 30, lenses, pollMs: 20 },
        { write: (t) => void (out += t), warn: () => {}, signal: ac.signal },
      );
      await waitFor(() => out.includes('probe #2 saw text'), 5000, 'the history with lens notes');
      ac.abort();
      await run;
      let all = '';
      await runTailAll(dir, { follow: false, session: 'last', full: false, json: false, filter: {}, color: 0, lines: 30, lenses }, { write: (t) => void (all += t), warn: () => {} });
      expect(all.match(/⚠ probe #\d saw text \[lens-probe\]/g)).toHaveLength(2);
    } finally {
      cleanup();
    }
  });

  it('stats count them among the findings; the exports keep them', async () => {
    const input = await openInput({ file: LOG, warn: () => {}, needsBody: statsNeedsBody, lenses });
    const b = new StatsBuilder();
    for await (const r of input.records) b.add(r);
    expect(b.finish().findings).toEqual([{ code: 'lens-probe', count: 2 }]);
    const records = await collect((await openInput({ file: LOG, warn: () => {}, lenses })).records);
    expect(renderMarkdown(records, { redacted: false, exporterVersion: 't' }).match(/> `lens-probe` probe .*saw text/g)).toHaveLength(2);
    const jsonl = (await collect(jsonlChunks((await openInput({ file: LOG, warn: () => {}, lenses })).records))).join('');
    expect(jsonl).toContain('"code":"lens-probe"');
  });

  it('check reports them as problems, and its envelope reads stay envelopes', async () => {
    const facts = await readFacts(LOG, { lenses });
    expect(facts.notes.map((n) => [n.seq, n.code])).toEqual(PROBED.map((s) => [s, 'lens-probe']));
    expect(evaluate(facts).problems.map((p) => `${p.ruleId} ${p.seq}`)).toEqual(['lens-probe 10', 'lens-probe 12']);
    // the stage parsed the tools/call answers for the lens; the gatherer, which reads them as envelopes, gets none
    const stage = new LensStage(lenses);
    for await (const item of readRecords(LOG, { needsBody: gatherNeedsBody, stage })) {
      if ('record' in item && item.record.method === 'tools/call') expect(item.record.msg).toBeUndefined();
    }
  });

  it('ls counts the records that carry them', async () => {
    const [s] = await listSessions(LOG, { stage: new LensStage(lenses) });
    expect(s!.findings).toBe(2);
  });

  describe('the live UI', () => {
    const ac = new AbortController();
    let watch: LogWatch;
    beforeAll(async () => {
      watch = new LogWatch({ files: [LOG], signal: ac.signal, lenses, pollMs: 20 });
      await watch.start();
    });
    afterAll(() => ac.abort());

    it('counts them on the session card, and rows and bodies carry them', async () => {
      const hello = watch.snapshot();
      expect(hello.type === 'hello' && hello.cards[0]!.findings).toBe(2);
      const rows = (await collect(sessionRowLines(LOG, 'clean-0001', undefined, lenses))).join('').trim().split('\n').map((l) => JSON.parse(l) as SessionRow);
      expect(rows.filter((r) => r.n).map((r) => r.n!.map((n) => n.code))).toEqual([['lens-probe'], ['lens-probe']]);
      const body = await findRecord(LOG, 'clean-0001', 12, false, undefined, lenses);
      expect(body?.notes).toEqual([{ code: 'lens-probe', text: 'probe #2 saw text' }]);
    });
  });
});

describe('LensStage', () => {
  const rec = (session: string, seq: number, extra: Partial<LogRecord> = {}): LogRecord =>
    ({ v: 1, time: seq, session, seq, from: 'server', kind: 'response', method: 'tools/call', level: 30, msg: { result: { content: [{ type: 'image' }] } }, ...extra }) as LogRecord;

  it('keeps one lens per session, appends after the analysis\' notes and raises the level to warn', () => {
    const stage = new LensStage(lenses);
    const a = stage.apply(rec('a', 1, { notes: [{ code: 'unknown-id', text: 'x' }] }));
    const b = stage.apply(rec('b', 1));
    const a2 = stage.apply(rec('a', 2));
    expect(a.notes).toEqual([{ code: 'unknown-id', text: 'x' }, { code: 'lens-probe', text: 'probe #1 saw image' }]);
    expect(b.notes?.[0]?.text).toBe('probe #1 saw image');
    expect(a2.notes?.[0]?.text).toBe('probe #2 saw image');
    expect([a.level, b.level]).toEqual([40, 40]);
    expect(stage.apply(rec('a', 3, { method: 'tools/list' })).notes).toBeUndefined();
  });

  it('closes a session at its end event, and the oldest beyond its bound', () => {
    const stage = new LensStage(lenses, 2);
    stage.apply(rec('a', 1));
    stage.apply({ v: 1, time: 2, session: 'a', seq: 2, from: 'proxy', kind: 'event', event: 'end' });
    expect(stage.apply(rec('a', 3)).notes?.[0]?.text).toBe('probe #1 saw image');
    stage.apply(rec('b', 1));
    stage.apply(rec('c', 1)); // a is the oldest of three: closed
    expect(stage.apply(rec('a', 4)).notes?.[0]?.text).toBe('probe #1 saw image');
    expect(stage.apply(rec('c', 2)).notes?.[0]?.text).toBe('probe #2 saw image');
  });
});
