/**
 * The two front-ends of a session's view, opened the same way in Debian's chromium: the HTML report
 * (`mcp-tap export --format html`, opened from a file:// URL) and the live UI (`mcp-tap ui` over the
 * logs' directory, the session's card clicked). Both wait until the view has drawn every row of the
 * session, so one suite runs the same assertions against both.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { isQuietExchange } from '../../src/log/http-records.js';
import type { LogRecord } from '../../src/log/record.js';
import { CHROMIUM } from './browser.js';
import { CLI, ROOT } from './paths.js';
import { runTap, type TapRun } from './run-tap.js';
import { waitFor } from './wait.js';

export type FrontName = 'report' | 'ui';

export interface Opened {
  page: Page;
  /** Script errors and console errors on the page. */
  errors: string[];
  /** Every URL the page asked for. */
  requests: string[];
  /** The only URLs the page may ask for: the report its own file; the UI its own origin. */
  allowed: (url: string) => boolean;
}

export interface Front {
  name: FrontName;
  /** Opens `session` of `log` and waits until all of it is drawn. */
  open(log: string, session: string, viewport?: { width: number; height: number }): Promise<Opened>;
  close(): Promise<void>;
}

/** Chromium as every browser test starts it: headless, no sandbox, no background traffic of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Runs the built CLI to its end. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The records of `session` in `log` that the view shows (the quiet HTTP exchanges left out). */
export function shownRecords(log: string, session: string): LogRecord[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogRecord)
    .filter((r) => r.session === session && !isQuietExchange(r));
}

/** A page that records every request it makes and every script or console error. */
export async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors, requests };
}

/** Until the view holds `rows` rows and its waterfall shows every bar (nothing filtered, not zoomed). */
async function drawn(page: Page, rows: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const v = (window as unknown as { __view?: { rows(): number[]; bars(): unknown[]; waterfallBars(): string[] } }).__view;
      return v !== undefined && v.rows().length === n && v.waterfallBars().length === v.bars().length && document.querySelectorAll('#list .lrow').length > 0;
    },
    rows,
    { timeout: 60_000 },
  );
}

/** The report: each log exported once (redacted, the default), opened from disk. */
export function reportFront(browser: Browser, dir: string): Front {
  const exported = new Map<string, string>();
  return {
    name: 'report',
    async open(log, session, viewport = { width: 1400, height: 1400 }) {
      const key = `${log}\u0000${session}`;
      let file = exported.get(key);
      if (!file) {
        file = join(dir, `${basename(log)}-${exported.size}.html`);
        const r = await cli(['export', log, '--session', session, '--format', 'html', '-o', file]);
        if (r.code !== 0 || r.stderr !== '') throw new Error(`export failed (${r.code}): ${r.stderr}`);
        exported.set(key, file);
      }
      const { page, errors, requests } = await newPage(browser, viewport);
      const url = pathToFileURL(file).href;
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __report?: { ready?: boolean } }).__report?.ready === true, null, { timeout: 60_000 });
      await drawn(page, shownRecords(log, session).length);
      return { page, errors, requests, allowed: (u) => u === url };
    },
    async close() {},
  };
}

/** The live UI over `dir` (logs opened are copied there first). */
export async function uiFront(browser: Browser, dir: string): Promise<Front & { url: string; run: TapRun }> {
  const run = runTap(['ui', '--dir', dir]);
  await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(run.stdout().toString()), 15_000, `the URL on stdout; stderr: ${run.stderr()}`);
  const url = run.stdout().toString().trim().split('\n')[0]!;
  const origin = new URL(url).origin;
  return {
    name: 'ui',
    url,
    run,
    async open(log, session, viewport = { width: 1400, height: 1400 }) {
      // the UI watches the directory's *.jsonrpc.log files
      if (!log.startsWith(`${dir}/`)) copyFileSync(log, join(dir, `${basename(log).replace(/(\.jsonrpc\.log|\.jsonl)$/, '')}.jsonrpc.log`));
      const { page, errors, requests } = await newPage(browser, viewport);
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __live?: { ready?: boolean } }).__live?.ready === true);
      const card = page.locator(`#session-list .card[data-session="${session}"]`);
      await card.waitFor({ timeout: 15_000 });
      await card.click();
      await drawn(page, shownRecords(log, session).length);
      // the list follows the newest row; start from the top, as the report does
      await page.evaluate(() => (document.getElementById('list')!.scrollTop = 0));
      await page.waitForFunction(() => document.querySelector('#list .lrow')?.getAttribute('data-seq') === String((window as unknown as { __view: { visibleRows(): number[] } }).__view.visibleRows()[0]));
      return { page, errors, requests, allowed: (u) => u.startsWith(`${origin}/`) };
    },
    async close() {
      run.kill();
      await run.exited().catch(() => {});
    },
  };
}
