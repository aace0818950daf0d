/**
 * The session view in a real browser (Debian's chromium through playwright-core), one suite for both
 * front-ends: the same assertions run against the HTML report (`export --format html`, opened from disk)
 * and the live UI (`mcp-tap ui`, the session's card clicked): one bar per request with the right outcome,
 * progress and cancel marks, lanes, filters that hide the right rows, hover and click, zoom by dragging
 * on the axis, nothing fetched from outside. Then the same session shown in both has the same rows, bars
 * and filters; and the live UI draws the report's waterfall features — progress marks, cancel marks,
 * task spans — as a session's records arrive.
 *
 * Without /usr/bin/chromium the suite is skipped locally and fails in CI (CI is set).
 * UPDATE_SCREENSHOT=1 also writes docs/report-screenshot.png from the real session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { LogRecord } from '../../src/log/record.js';
import { browserTests, CHROMIUM } from '../helpers/browser.js';
import { recordEverythingSession } from '../helpers/everything-session.js';
import { launchChromium, reportFront, shownRecords, uiFront, type Front, type FrontName, type Opened } from '../helpers/fronts.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { err, handshake, harness, note, req, res } from '../unit/helpers/session-harness.js';

const MODE = browserTests();
const BASIC_LOG = join(ROOT, 'test', 'fixtures', 'logs', 'report-basic.jsonl');
const BASIC = 'rep-basic-1';

if (MODE === 'fail') {
  describe('the session view in a browser', () => {
    it('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium package (apt-get install -y chromium; .ci/run installs it)`);
    });
  });
} else if (MODE === 'skip') {
  console.warn(`session-view-browser.test.ts: SKIPPED — ${CHROMIUM} is missing (apt-get install -y chromium); under CI this is a failure`);
}

type View = {
  bars(): Array<{ key: string; outcome: string; progress: number; cancelAt?: number; task?: string }>;
  rows(): number[];
  visibleRows(): number[];
  waterfallBars(): string[];
  view(): number[];
  setFilter(f: object): void;
  figures(): unknown;
  choices(): unknown;
};
const view = <T>(page: Page, fn: (v: View) => T): Promise<T> => page.evaluate(`(${fn.toString()})(window.__view)`) as Promise<T>;
const rowsShown = (page: Page) => page.$$eval('#list .lrow', (els) => els.map((e) => Number(e.getAttribute('data-seq'))));
const records = readFileSync(BASIC_LOG, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogRecord);

let browser: Browser;
let tmp: ReturnType<typeof tempDir>;
let logs: string;
let everything: { log: string; session: string };
const fronts = {} as Record<FrontName, Front>;

/** Nothing but what the front may ask for (the report: its own file, once; the UI: its own origin). */
function fetchedNothingElse(front: FrontName, o: Opened): void {
  expect(o.requests.filter((u) => !o.allowed(u))).toEqual([]);
  if (front === 'report') expect(o.requests).toHaveLength(1);
}

describe.skipIf(MODE !== 'run')('the session view in a browser', () => {
  beforeAll(async () => {
    tmp = tempDir('mcp-tap-view-');
    logs = join(tmp.dir, 'logs');
    mkdirSync(logs);
    browser = await launchChromium();
    const log = join(logs, 'everything.jsonrpc.log');
    await recordEverythingSession(log);
    everything = { log, session: (JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!) as LogRecord).session };
    fronts.report = reportFront(browser, tmp.dir);
    fronts.ui = await uiFront(browser, logs);
  });

  afterAll(async () => {
    await fronts.ui?.close();
    await browser?.close();
    tmp?.cleanup();
  });

  describe.each(['report', 'ui'] as const)('%s', (front) => {
    it('draws one bar per request with the right outcome, progress and cancel marks, and fetches nothing from outside', async () => {
      const o = await fronts[front].open(BASIC_LOG, BASIC);
      const { page } = o;
      const bars = await page.$$eval('.bar', (els) => els.map((e) => [e.getAttribute('data-key'), e.getAttribute('data-outcome')]));
      expect(bars).toEqual([
        ['4', 'ok'],
        ['8', 'ok'],
        ['10', 'ok'],
        ['12', 'isError'],
        ['14', 'error'],
        ['16', 'ok'],
        ['22', 'ok'],
        ['26', 'cancelled'],
        ['28:0', 'ok'],
        ['28:1', 'error'],
        ['30', 'unanswered'],
      ]);
      // outcome classes match the attributes; the long operation carries its three progress marks; the cancelled call its cancel
      expect(await page.$$eval('.bar', (els) => els.every((e) => e.classList.contains(`o-${e.getAttribute('data-outcome')}`)))).toBe(true);
      expect(await page.$$eval('.bar[data-key="16"] .pm', (els) => els.length)).toBe(3);
      expect(await page.$$eval('.bar .cm', (els) => els.map((e) => e.parentElement!.getAttribute('data-key')))).toEqual(['26']);
      // the unanswered bar runs to the right edge of the session
      const track = (await page.locator('.wf-axis .wf-track').boundingBox())!;
      const last = (await page.locator('.bar[data-key="30"]').boundingBox())!;
      expect(Math.abs(last.x + last.width - (track.x + track.width * (1961 / (1961 * 1.01))))).toBeLessThan(6);
      // lanes: notifications both ways, stderr, the rest
      expect(await page.$$eval('[data-lane]', (els) => els.map((e) => e.getAttribute('data-lane')))).toEqual(['nc', 'ns', 'e', 'o']);
      // wire text with </script> and <!-- stayed data
      expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(o.errors).toEqual([]);
      fetchedNothingElse(front, o);
      await page.close();
    });

    it('filters hide the right rows (method, direction, kind, errors only, text) and thin out the waterfall', async () => {
      const { page, errors } = await fronts[front].open(BASIC_LOG, BASIC);
      expect(await rowsShown(page)).toEqual(records.map((r) => r.seq));

      await page.selectOption('#f-method', 'tools/call');
      await expect.poll(() => rowsShown(page)).toEqual(records.filter((r) => r.method === 'tools/call').map((r) => r.seq));
      expect(await page.$$eval('.bar', (els) => els.map((e) => e.getAttribute('data-method')))).toEqual(Array(5).fill('tools/call'));

      await page.selectOption('#f-method', 'tools/call\u0000slow');
      await expect.poll(() => rowsShown(page)).toEqual([26, 30]);

      await page.selectOption('#f-method', '');
      await page.selectOption('#f-dir', 's');
      await page.selectOption('#f-kind', 'notification');
      await expect.poll(() => rowsShown(page)).toEqual(records.filter((r) => r.from === 'server' && r.kind === 'notification').map((r) => r.seq));

      await page.selectOption('#f-dir', '');
      await page.selectOption('#f-kind', '');
      await page.check('#f-err');
      // error answers, isError results, findings, invalid lines, failed or unanswered requests, a batch holding an error
      await expect.poll(() => rowsShown(page)).toEqual([12, 13, 14, 15, 24, 28, 29, 30]);
      expect(await page.$$eval('.bar', (els) => els.map((e) => e.getAttribute('data-outcome')))).toEqual(['isError', 'error', 'error', 'unanswered']);

      await page.uncheck('#f-err');
      await page.fill('#f-text', 'HALFWAY');
      await waitFor(async () => (await rowsShown(page)).length === 1, 5000, 'the text filter');
      expect(await rowsShown(page)).toEqual([21]);
      expect(await page.textContent('#f-count')).toBe('1 of 35 messages');
      await page.fill('#f-text', '');
      await waitFor(async () => (await rowsShown(page)).length === records.length, 5000, 'the cleared filter');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('hover shows the details of a bar; a click opens its message with the pretty-printed body', async () => {
      const { page, errors } = await fronts[front].open(BASIC_LOG, BASIC);
      await page.hover('.bar[data-key="14"]');
      const tip = page.locator('#tip');
      await expect.poll(() => tip.isVisible()).toBe(true);
      const text = await tip.textContent();
      expect(text).toContain('resources/read');
      expect(text).toContain('demo://missing');
      expect(text).toContain('-32002 Resource not found');
      expect(text).toContain('70.0 ms');

      await page.click('.bar[data-key="14"]');
      const row = page.locator('#list .lrow[data-seq="14"]');
      await expect.poll(() => row.getAttribute('class')).toContain('open');
      // the report holds the body; the live UI fetches it (redacted, which changes nothing here)
      await expect.poll(() => row.locator('pre.body').textContent()).toBe(JSON.stringify(records[13]!.msg, null, 2));
      expect(await row.locator('.links').textContent()).toContain('answered by #15');
      // a click on the header row folds it again
      await row.locator('.lhead').click();
      await expect.poll(() => row.getAttribute('class')).not.toContain('open');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('a drag on the time axis zooms into that range; the list follows; "Whole session" zooms out', async () => {
      const { page, errors } = await fronts[front].open(BASIC_LOG, BASIC);
      const axis = (await page.locator('.wf-axis .wf-track').boundingBox())!;
      const at = (ms: number) => axis.x + (ms / (1961 * 1.01)) * axis.width;
      await page.mouse.move(at(500), axis.y + 10);
      await page.mouse.down();
      await page.mouse.move(at(900), axis.y + 10, { steps: 4 });
      await page.mouse.up();
      const range = await view(page, (v) => v.view());
      expect(range[0]).toBeGreaterThan(480);
      expect(range[1]).toBeLessThan(920);
      // bars overlapping 0.5–0.9 s: the long operation, sampling/createMessage, and the unanswered... not yet sent
      expect(await view(page, (v) => v.waterfallBars())).toEqual(['16', '22']);
      const rows = await view(page, (v) => v.visibleRows());
      expect(rows.length).toBeGreaterThan(0);
      const t0 = records[0]!.time;
      expect(rows).toEqual(records.filter((r) => r.time - t0 >= range[0]! && r.time - t0 <= range[1]!).map((r) => r.seq));
      await page.click('#z-all');
      expect(await view(page, (v) => v.waterfallBars())).toHaveLength(11);
      expect(errors).toEqual([]);
      await page.close();
    });

    it('a real SDK session against server-everything: every request a bar, every outcome, progress marks, nothing fetched from outside', async () => {
      const o = await fronts[front].open(everything.log, everything.session, { width: 1400, height: 1250 });
      const { page } = o;
      const recs = shownRecords(everything.log, everything.session);
      const bars = await page.$$eval('.bar', (els) => els.map((e) => [Number(e.getAttribute('data-seq')), e.getAttribute('data-outcome')] as const));
      expect(bars.map((b) => b[0])).toEqual(recs.filter((r) => r.kind === 'request').map((r) => r.seq));
      const outcomes = bars.map((b) => b[1]);
      for (const outcome of ['ok', 'error', 'isError', 'cancelled', 'unanswered']) expect(outcomes, outcome).toContain(outcome);
      expect(await page.$$eval('.bar .pm', (els) => els.length)).toBeGreaterThanOrEqual(3);
      expect(await page.$$eval('.bar .cm', (els) => els.length)).toBeGreaterThanOrEqual(1);
      if (front === 'report' && process.env['UPDATE_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs', 'report-screenshot.png') });
      expect(o.errors).toEqual([]);
      fetchedNothingElse(front, o);
      await page.close();
    });
  });

  describe('the same session in the report and in the live UI', () => {
    /** The list's first lines from the top, but stderr and invalid lines, whose text only the report holds. */
    async function lines(page: Page): Promise<string[]> {
      const first = (await view(page, (v) => v.visibleRows()))[0];
      await page.evaluate(() => (document.getElementById('list')!.scrollTop = 0));
      await page.waitForFunction((s) => document.querySelector('#list .lrow')?.getAttribute('data-seq') === String(s), first);
      const all = await page.$$eval('#list .lrow', (els) => els.map((e) => [e.getAttribute('data-kind'), (e.querySelector('.lhead') as HTMLElement).innerText]));
      return all.slice(0, 30).filter(([k]) => k !== 'stderr' && k !== 'invalid').map(([, t]) => t!);
    }

    /** What a front shows of a session: rows, bars (data and drawn), filter choices, head, the list's lines. */
    async function shown(o: Opened) {
      const { page } = o;
      return {
        rows: await view(page, (v) => v.rows()),
        bars: await view(page, (v) => v.bars()),
        choices: await view(page, (v) => v.choices()),
        figures: await view(page, (v) => v.figures()),
        head: await page.locator('#session-head .figures').textContent(),
        drawn: await page.$$eval('.bar', (els) => els.map((e) => `${e.getAttribute('data-key')} ${e.getAttribute('data-outcome')} pm=${e.querySelectorAll('.pm').length} cm=${e.querySelectorAll('.cm').length} task=${e.querySelectorAll('.task-span').length} ${(e.nextElementSibling as HTMLElement).innerText}`)),
        lines: await lines(page),
      };
    }

    const FILTERS = [{ method: 'tools/call' }, { dir: 's' }, { kind: 'notification' }, { outcome: 'error' }, { outcome: 'unanswered' }, { finding: '*' }, { err: true }, { method: 'tools/call', err: true }];

    for (const which of ['the fixture', 'the SDK session'] as const) {
      it(`${which}: the same rows, bars, filters and lines`, async () => {
        const [log, session] = which === 'the fixture' ? [BASIC_LOG, BASIC] : [everything.log, everything.session];
        const report = await fronts.report.open(log, session);
        const ui = await fronts.ui.open(log, session);
        const a = await shown(report);
        const b = await shown(ui);
        expect(a.rows.length).toBeGreaterThan(30);
        expect(b).toEqual(a);
        for (const f of FILTERS) {
          await Promise.all([report, ui].map((o) => view(o.page, (v) => v.setFilter({ method: '', dir: '', kind: '', outcome: '', finding: '', err: false }))));
          const seen = await Promise.all([report, ui].map((o) => o.page.evaluate((x) => {
            const v = (window as unknown as { __view: View }).__view;
            v.setFilter(x);
            return { rows: v.visibleRows(), bars: v.waterfallBars() };
          }, f)));
          expect(seen[1], JSON.stringify(f)).toEqual(seen[0]);
          if (which === 'the fixture') expect(seen[0]!.rows.length, JSON.stringify(f)).toBeGreaterThan(0);
        }
        expect([...report.errors, ...ui.errors]).toEqual([]);
        await report.page.close();
        await ui.page.close();
      });
    }
  });

  it('the live UI draws progress marks, cancel marks and task spans as the records arrive, as the report draws them', async () => {
    const live = liveSession(join(logs, 'live-tasks.jsonrpc.log'));
    live.write(live.records.length - 3);
    const o = await fronts.ui.open(live.path, live.session);
    const page = o.page;
    const bar = (key: number) => page.locator(`.bar[data-key="${key}"]`);
    await expect.poll(() => bar(live.progress).locator('.pm').count()).toBe(3);
    expect(await bar(live.cancelled).getAttribute('data-outcome')).toBe('cancelled');
    expect(await bar(live.cancelled).locator('.cm').count()).toBe(1);
    expect(await bar(live.task).getAttribute('data-outcome')).toBe('running');
    expect(await bar(live.task).locator('.task-span').count()).toBe(1);
    // the task ends, live: its bar ends there, ok, its span still drawn
    live.write(live.records.length);
    await expect.poll(() => bar(live.task).getAttribute('data-outcome'), { timeout: 10_000 }).toBe('ok');
    expect(await bar(live.task).locator('.task-span').count()).toBe(1);
    const uiBars = await view(page, (v) => v.bars());
    expect(o.errors).toEqual([]);
    await page.close();
    // the report of the same log draws the same
    const report = await fronts.report.open(live.path, live.session);
    expect(await view(report.page, (v) => v.bars())).toEqual(uiBars);
    expect(await report.page.locator(`.bar[data-key="${live.task}"] .task-span`).count()).toBe(1);
    await report.page.close();
  });

  it('an open row follows the live session: the answers to a batch appear in its open details as they arrive, also when its line does not change', async () => {
    const live = liveBatchSession(join(logs, 'live-batch.jsonrpc.log'));
    live.write(live.records.length - 1);
    const o = await fronts.ui.open(live.path, live.session);
    const page = o.page;
    const row = page.locator(`#list .lrow[data-seq="${live.batch}"]`);
    await row.locator('.lhead').click();
    const answers = () => row.locator('table.items a.goto').evaluateAll((els) => els.map((e) => e.getAttribute('data-goto')));
    await expect.poll(answers).toEqual([String(live.failed)]);
    // the second answer changes the details only (the line was already marked bad): the open table shows it
    live.write(live.records.length);
    await expect.poll(answers, { timeout: 10_000 }).toEqual([String(live.failed), String(live.answered)]);
    expect(o.errors).toEqual([]);
    await page.close();
  });

  it('a press held on a row while a row above it is redrawn (its answer arrives) ends in a click that opens it', async () => {
    const live = liveAnswerSession(join(logs, 'live-answers.jsonrpc.log'));
    live.write(live.records.length - 1);
    const o = await fronts.ui.open(live.path, live.session);
    const page = o.page;
    // the waterfall above the list is drawn at most every 250 ms: press once it shows initialize and the three calls
    await expect.poll(() => view(page, (v) => v.waterfallBars().length)).toBe(4);
    const later = page.locator(`#list .lrow[data-seq="${live.third}"]`);
    const box = (await later.locator('.lhead').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // the first call's answer: its row is rebuilt (its pill and answer link change), the rows after it
    // stay where they are, in the document too (one taken out and put back loses the press)
    live.write(live.records.length);
    await expect.poll(() => page.locator(`#list .lrow[data-seq="${live.answer}"]`).count(), { timeout: 10_000 }).toBe(1);
    await page.mouse.up();
    await expect.poll(() => later.evaluate((e) => e.classList.contains('open'))).toBe(true);
    expect(o.errors).toEqual([]);
    await page.close();
  });
});

/**
 * A session as the real analysis writes it (test/unit/helpers/session-harness.ts): a call with three
 * progress notifications, a call the client cancels, and a call answered with a task that completes
 * at the end — written to `path` a piece at a time, with times from now, as a live mcp-tap would.
 */
function liveSession(path: string) {
  const h = handshake(harness());
  const progress = h.send('client', req(11, 'tools/call', { name: 'long', arguments: {}, _meta: { progressToken: 'p1' } }), 100).seq;
  for (const [i, t] of [150, 200, 250].entries()) h.send('server', note('notifications/progress', { progressToken: 'p1', progress: i + 1, total: 3 }), t);
  h.send('server', res(11, { content: [{ type: 'text', text: 'done' }] }), 300);
  const cancelled = h.send('client', req(12, 'tools/call', { name: 'slow', arguments: {} }), 320).seq;
  h.send('client', note('notifications/cancelled', { requestId: 12, reason: 'gave up' }), 420);
  const task = h.send('client', req(13, 'tools/call', { name: 'research', arguments: {}, task: { ttl: 60000 } }), 450).seq;
  h.send('server', res(13, { task: { taskId: 'T1', status: 'working', createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:30:00Z', ttl: 60000, pollInterval: 100 } }), 451);
  h.send('client', req(14, 'ping'), 500);
  h.send('server', res(14, {}), 501);
  h.send('server', note('notifications/tasks/status', { taskId: 'T1', status: 'completed', createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:30:02Z', ttl: 60000, pollInterval: 100 }), 900);
  return { ...liveLog(path, 'live-tasks', h), progress, cancelled, task };
}

/**
 * A 2025-03-26 session with a batch of two requests, answered one at a time: first an error (the batch's
 * line stays marked bad from then on), then (the last record) a result.
 */
function liveBatchSession(path: string) {
  const h = handshake(harness(), '2025-03-26');
  const batch = h.send('client', [req(21, 'tools/list'), req(22, 'ping')], 100).seq;
  const failed = h.send('server', err(21), 200).seq;
  const answered = h.send('server', res(22, {}), 300).seq;
  return { ...liveLog(path, 'live-batch', h), batch, failed, answered };
}

/** Three calls, then (the last record) the answer to the first. */
function liveAnswerSession(path: string) {
  const h = handshake(harness());
  h.send('client', req(31, 'tools/call', { name: 'a', arguments: {} }), 100);
  h.send('client', req(32, 'tools/call', { name: 'b', arguments: {} }), 110);
  const third = h.send('client', req(33, 'tools/call', { name: 'c', arguments: {} }), 120).seq;
  const answer = h.send('server', res(31, { content: [] }), 130).seq;
  return { ...liveLog(path, 'live-answers', h), third, answer };
}

/** The harness's records as a live mcp-tap log of `name`, started a second ago, written a piece at a time. */
function liveLog(path: string, name: string, h: ReturnType<typeof harness>) {
  const session = `${name}-${Date.now().toString(36)}`;
  const t0 = Date.now() - 1000;
  const base = h.records[0]!.time;
  // mcp-tap's start event first, naming this process: the session stays running while the test does
  const records: LogRecord[] = [
    { v: 1, time: t0, session, seq: 0, from: 'proxy', kind: 'event', event: 'start', name, command: 'node', args: [], cwd: '/', pid: process.pid } as LogRecord,
    ...h.records.map((r) => ({ ...r, session, time: t0 + (r.time - base) })),
  ];
  let written = 0;
  return {
    path,
    session,
    records,
    /** Writes the records up to `n`. */
    write(n: number) {
      for (; written < n; written++) appendFileSync(path, `${JSON.stringify(records[written])}\n`);
    },
  };
}
