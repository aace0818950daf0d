/**
 * The HTML report as text: self-contained (no URL outside the file, a CSP that forbids any), wire text
 * that can never break out of the data block or into markup, the data block reading back exactly, body
 * limits, several sessions, the redaction notice.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LogRecord } from '../../src/log/record.js';
import { renderReport } from '../../src/report/page.js';
import { PAGE_SCRIPT } from '../../src/report/page-script.js';
import { escapeHtml, jsonForScript, visibleText } from '../../src/report/safe-json.js';
import { readRecords } from '../helpers/log.js';
import { SessionFold } from '../../src/session-view/fold.js';
import type { SessionRow } from '../../src/session-view/row.js';

const FIXTURE = new URL('../fixtures/logs/report-basic.jsonl', import.meta.url);

const load = (path: string | URL): LogRecord[] => readRecords(path) as unknown as LogRecord[];

interface Data {
  version: string;
  redacted: boolean;
  sessions: Array<{ id: string; name: string; origin: number; duration: number; rows: Array<Record<string, unknown>> }>;
}

const DATA_OPEN = '<script type="application/json" id="report-data">';

/** The data block as the browser's HTML parser sees it: up to the first `</script`. */
function dataOf(html: string): Data {
  const start = html.indexOf(DATA_OPEN);
  expect(start).toBeGreaterThan(0);
  const from = start + DATA_OPEN.length;
  const end = html.toLowerCase().indexOf('</script', from);
  return JSON.parse(html.slice(from, end)) as Data;
}

/** Everything but the data block (the part that is markup, style and script). */
function markupOf(html: string): string {
  const start = html.indexOf(DATA_OPEN);
  const end = html.indexOf('</script>', start);
  return html.slice(0, start) + html.slice(end);
}

const records = load(FIXTURE);
const html = renderReport(records, { redacted: true, exporterVersion: '9.9.9' });

describe('renderReport', () => {
  it('is one self-contained page: a CSP forbidding everything outside it, no URL to fetch', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
    const markup = markupOf(html);
    expect(markup).not.toMatch(/\b(?:src|href|action|poster|srcset)\s*=(?!\s*["']?#)/i);
    expect(markup).not.toMatch(/https?:\/\//);
    expect(markup).not.toMatch(/@import|url\(/i);
    expect(markup).not.toMatch(/<link\b|<iframe\b|<img\b|<object\b|<embed\b/i);
  });

  it('has exactly two script elements whatever the wire held (the fixture plants </script> and <!--)', () => {
    expect(JSON.stringify(records)).toContain('</script><script>window.__pwned=1</script><!--');
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<!--');
  });

  it('its data block reads back: every record a row, bodies exact; the page folds one bar per request from the rows', () => {
    const data = dataOf(html);
    expect(data.version).toBe('9.9.9');
    expect(data.redacted).toBe(true);
    expect(data.sessions).toHaveLength(1);
    const s = data.sessions[0]!;
    expect(s.rows.map((r) => r['s'])).toEqual(records.map((r) => r.seq));
    for (const r of records) {
      const row = s.rows.find((x) => x['s'] === r.seq)!;
      if (r.msg !== undefined) expect(row['y']).toEqual(r.msg);
      else if (r.raw !== undefined) expect(row['y']).toBe(r.raw);
      expect(row['k']).toBe(r.kind);
    }
    // what the page's script does with them (src/session-view/fold.ts, the live UI's fold too)
    const fold = new SessionFold(s.duration);
    fold.add(s.rows as unknown as SessionRow[]);
    const bars = fold.wf.bars;
    expect(bars.map((b) => b.outcome)).toEqual(['ok', 'ok', 'ok', 'isError', 'error', 'ok', 'ok', 'cancelled', 'ok', 'error', 'unanswered']);
    expect(bars.find((b) => b.target === 'trigger-long-running-operation')!.progress).toEqual([540, 870, 1200]);
    // request rows and batch elements get their outcome and answer for the list
    expect(fold.wf.request(14)).toMatchObject({ outcome: 'error', answerSeq: 15 });
    expect(fold.wf.request(30)).toMatchObject({ outcome: 'unanswered' });
    expect([fold.wf.request(28, 0)?.outcome, fold.wf.request(28, 1)?.outcome]).toEqual(['ok', 'error']);
    expect(fold.wf.notifications).toHaveLength(6);
  });

  it('shows the header and summary of the Markdown export, escaped', () => {
    expect(html).toContain('<th scope="row">Server command</th><td><code>node server.js stdio</code></td>');
    expect(html).toContain('<code>report-fixture 2.0.0</code>');
    expect(html).toContain('<th scope="row">Unanswered requests</th><td>1</td>');
    expect(html).toContain('Secrets are redacted');
    const evil = records.map((r) => (r.kind === 'event' && r.event === 'start' ? { ...r, name: '<img src=x onerror=alert(1)>', args: ['--x', '"><script>alert(2)</script>'] } : r));
    const page = renderReport(evil, { redacted: false, exporterVersion: '1' });
    expect(markupOf(page)).not.toContain('<img');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.match(/<script/gi)).toHaveLength(2);
    expect(page).toContain('WITHOUT redaction');
  });

  it('shortens bodies past the limit and, past the page budget, cuts them harder', () => {
    const big = 'x'.repeat(5000);
    const recs: LogRecord[] = [1, 2, 3].map((seq) => ({ v: 1, time: seq, session: 's', seq, from: 'server', kind: 'notification', method: 'notifications/message', bytes: 5100, msg: { jsonrpc: '2.0', method: 'notifications/message', params: { data: big } } }));
    recs.push({ v: 1, time: 4, session: 's', seq: 4, from: 'server', kind: 'stderr', bytes: 5000, raw: big });
    const data = dataOf(renderReport(recs, { redacted: true, exporterVersion: '1', limits: { maxBody: 6000, budget: 10000, leanBody: 300 } }));
    const rows = data.sessions[0]!.rows;
    expect(rows[0]!['y']).toEqual(recs[0]!.msg); // under the limit
    expect(rows[1]!['y']).toEqual(recs[1]!.msg); // the budget is spent after this one
    expect(rows[2]!['yt']).toBe('p');
    expect(String(rows[2]!['y']).length).toBeLessThan(400);
    expect(rows[2]!['yb']).toBeGreaterThan(5000);
    expect(rows[3]!['yt']).toBe('t');
    expect(rows[3]!['yb']).toBe(5000);
  });

  it('puts several sessions on one page with a picker', () => {
    const other = records.map((r) => ({ ...r, session: 'second', time: r.time + 100_000 }));
    const page = renderReport([...records, ...other], { redacted: true, exporterVersion: '1' });
    expect(page).toContain('<select id="session-pick">');
    expect(page.match(/class="card session-head"/g)).toHaveLength(2);
    expect(dataOf(page).sessions.map((s) => s.id)).toEqual(['rep-basic-1', 'second']);
  });

  it('renders an empty log without failing', () => {
    const page = renderReport([], { redacted: true, exporterVersion: '1' });
    expect(dataOf(page).sessions).toEqual([]);
    expect(page).toContain('no records');
  });
});

describe('page script', () => {
  it('is valid JavaScript with no sequence that would end its script element', () => {
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
    expect(PAGE_SCRIPT.toLowerCase()).not.toContain('</script');
    expect(PAGE_SCRIPT).not.toContain('<!--');
  });
});

describe('safe text', () => {
  it('jsonForScript: any value reads back exactly and holds no "<"', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (v, s) => {
        for (const x of [v, s, { [s]: s }]) {
          const text = jsonForScript(x);
          expect(text).not.toContain('<');
          expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(x)));
        }
      }),
    );
    expect(jsonForScript('</script><!--\u2028\ud800')).toBe('"\\u003c/script>\\u003c!--\u2028\\ud800"');
  });

  it('escapeHtml and visibleText', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(visibleText('a\x1b[31mb\u202ec\td')).toBe('a\\x1b[31mb\\u202ec\td');
  });
});
