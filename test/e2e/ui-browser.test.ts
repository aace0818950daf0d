/**
 * What only `mcp-tap ui` does, in a real browser (Debian's chromium through playwright-core, a fresh
 * profile): the page is open while two SDK clients talk to server-everything through mcp-tap; both
 * sessions appear, their rows arrive live, the filters narrow the list, a body is redacted by default
 * and real when revealed. Over real HTTP: no token → 403, a forged Host → 403. The page opens on the
 * newest live session and follows it — on to a newer one as it starts — until the person picks another.
 * What the UI shares with the report (the session view) is tested for both in session-view-browser.test.ts.
 *
 * Without /usr/bin/chromium the suite is skipped locally and fails in CI (CI is set).
 * UPDATE_SCREENSHOT=1 also writes docs/ui-screenshot.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SECRET = 'sk-proj-PLANTEDliveUi0123456789abcdef';

if (!HAVE_CHROMIUM && process.env['CI']) {
  describe('mcp-tap ui in a browser', () => {
    it('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error(`${CHROMIUM} is missing: the browser tests of mcp-tap ui need Debian's chromium package (apt-get install -y chromium; .ci/run installs it)`);
    });
  });
}

/** A GET over real HTTP with the headers given (Host included, which fetch would not let us forge). */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** An SDK client talking to server-everything through mcp-tap, logging to `<dir>/<name>.jsonrpc.log`. */
async function connect(dir: string, name: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--name', name, '--log', join(dir, `${name}.jsonrpc.log`), '--quiet', '--', process.execPath, EVERYTHING, 'stdio'],
    stderr: 'pipe',
    cwd: ROOT,
  });
  const client = new Client({ name: `ui-e2e-${name}`, version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

type Live = {
  ready: boolean;
  listed(): number[];
  rowCount(): number;
  cards(): { server: string; state: string; requests: number }[];
  selected(): { log: number; session: string } | null;
  following(): boolean;
};

/** Appends records of a live session (a start event, then requests) to `<dir>/<name>.jsonrpc.log`, as mcp-tap writes them. */
function liveLog(dir: string, name: string): { session: string; request: (n: number) => void; answer: (reqSeq: number) => void } {
  const session = `live-${name}-${Date.now().toString(36)}`;
  const path = join(dir, `${name}.jsonrpc.log`);
  let seq = 0;
  const put = (r: Record<string, unknown>) => appendFileSync(path, `${JSON.stringify({ v: 1, time: Date.now(), session, seq: ++seq, ...r })}\n`);
  put({ from: 'proxy', kind: 'event', event: 'start', name, command: 'node', args: [], cwd: '/', pid: 1 });
  return {
    session,
    request: (n) => {
      for (let i = 0; i < n; i++) put({ from: 'client', kind: 'request', id: seq, method: 'tools/call', target: 'echo', msg: { jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name: 'echo' } } });
    },
    // a request's id is the seq before its own
    answer: (reqSeq) => put({ from: 'server', kind: 'response', id: reqSeq - 1, method: 'tools/call', target: 'echo', reqSeq, ms: 1, msg: { jsonrpc: '2.0', id: reqSeq - 1, result: { content: [] } } }),
  };
}
/** A click whose button is held down while `during` runs: what a person's click is while a live page redraws. */
async function heldClick(page: Page, target: Locator, during: () => Promise<void>): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element to click is not shown');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await during();
  await page.mouse.up();
}
const live = <T>(page: Page, fn: (l: Live) => T): Promise<T> => page.evaluate(`(${fn.toString()})(window.__live)`) as Promise<T>;

describe.skipIf(!HAVE_CHROMIUM)('mcp-tap ui in a browser', () => {
  let tmp: ReturnType<typeof tempDir>;
  let logs: string;
  let ui: TapRun;
  let url: string;
  let port: number;
  let browser: Browser;
  let context: BrowserContext;
  const clients: Client[] = [];

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-ui-');
    logs = join(tmp.dir, 'logs');
    mkdirSync(logs);
    ui = runTap(['ui', '--dir', logs]);
    await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(ui.stdout().toString()), 15_000, `the URL on stdout; stderr: ${ui.stderr()}`);
    url = ui.stdout().toString().trim().split('\n')[0]!;
    port = Number(new URL(url).port);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await browser?.close();
    ui?.kill();
    await ui?.exited().catch(() => {});
    tmp?.cleanup();
  });

  it('refuses requests without the token, and with a forged Host (403)', async () => {
    const token = new URL(url).searchParams.get('token')!;
    expect(await rawGet(port, '/', { host: `127.0.0.1:${port}` })).toBe(403);
    expect(await rawGet(port, '/api/sessions', { host: `127.0.0.1:${port}` })).toBe(403);
    expect(await rawGet(port, `/?token=${token}`, { host: `127.0.0.1:${port}` })).toBe(303);
    expect(await rawGet(port, `/?token=${token}`, { host: `attacker.example:${port}` })).toBe(403);
    expect(await rawGet(port, '/api/sessions', { host: `attacker.example:${port}`, cookie: `mcp-tap-ui-${port}=${token}` })).toBe(403);
  });

  it('shows two live sessions as they happen: cards, rows, filters, redacted and revealed bodies', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
    expect(new URL(page.url()).search).toBe(''); // the token left the address bar
    await page.waitForFunction(() => (window as unknown as { __live?: Live }).__live?.ready === true);
    await expect.poll(() => page.locator('#conn').textContent()).toMatch(/^live/);

    // the first server starts while the page is open
    const alpha = await connect(logs, 'alpha');
    clients.push(alpha);
    const alphaCard = page.locator('.card[data-server="alpha"]');
    await alphaCard.waitFor();
    expect(await alphaCard.locator('.state').textContent()).toBe('running');
    await alphaCard.click();
    expect(await live(page, (l) => l.following())).toBe(false); // the click picked it: beta, newer, will not take its place
    await page.locator('#list .lrow[data-kind="request"]').first().waitFor(); // initialize, from the history

    // rows arrive live in the selected session
    await alpha.callTool({ name: 'echo', arguments: { message: `hello ${SECRET}` } });
    const echoRow = page.locator('#list .lrow[data-kind="request"]', { hasText: 'echo' });
    await echoRow.waitFor();
    const before = await live(page, (l) => l.rowCount());
    await alpha.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
    await page.locator('#list .lrow', { hasText: 'get-sum' }).first().waitFor();
    expect(await live(page, (l) => l.rowCount())).toBeGreaterThan(before);

    // a second server appears beside it, newest first, with its own counts
    const beta = await connect(logs, 'beta');
    clients.push(beta);
    await beta.listTools();
    await page.locator('.card[data-server="beta"]').waitFor();
    await waitFor(async () => (await live(page, (l) => l.cards())).find((c) => c.server === 'beta')?.requests === 2, 10_000, 'beta: initialize and tools/list counted');
    expect((await live(page, (l) => l.cards())).map((c) => c.server)).toEqual(['beta', 'alpha']);

    // filters: server, method/tool, direction, outcome
    await page.selectOption('#f-server', 'beta');
    await expect.poll(() => page.locator('.card').evaluateAll((els) => els.map((e) => e.getAttribute('data-server')))).toEqual(['beta']);
    await page.selectOption('#f-server', '');
    await page.selectOption('#f-method', 'tools/call\u0000echo');
    // the planted key in echo's arguments (and echoed in its result) carries the security lens' notes, by kind
    await expect.poll(() => page.locator('#list .lrow .c-m').allTextContents()).toEqual(['tools/callecho⚠ credential-in-arguments', 'tools/callecho⚠ credential-in-result']);
    await page.selectOption('#f-method', '');
    await page.selectOption('#f-dir', 's');
    await expect.poll(async () => new Set(await page.locator('#list .lrow .c-d').allTextContents())).toEqual(new Set(['←']));
    await page.selectOption('#f-dir', '');
    await page.selectOption('#f-outcome', 'ok');
    await expect.poll(async () => (await page.locator('#list .lrow').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).every((k) => k === 'request' || k === 'response')).toBe(true);
    const okCount = (await live(page, (l) => l.listed())).length;
    expect(okCount).toBeGreaterThanOrEqual(6); // initialize, tools/call ×2, and their answers
    await page.selectOption('#f-outcome', '');

    // a body, unfolded under its line: redacted like export by default, as logged when revealed
    await page.locator('#list .lrow[data-kind="request"]', { hasText: 'echo' }).locator('.lhead').click();
    const body = page.locator('#list .lrow.open pre.body');
    await expect.poll(() => body.textContent()).toContain('[REDACTED:');
    const redacted = (await body.textContent())!;
    expect(redacted).not.toContain(SECRET);
    expect(redacted).toContain('"method": "tools/call"');
    expect(await page.locator('#list .lrow.open .body-head').textContent()).toContain('redacted like export');
    await page.check('#reveal');
    await expect.poll(() => body.textContent()).toContain(SECRET);
    expect(await page.locator('#list .lrow.open .body-head').textContent()).toContain('REVEALED');
    await page.uncheck('#reveal');
    await expect.poll(() => body.textContent()).not.toContain(SECRET);
    if (process.env['UPDATE_SCREENSHOT']) await page.screenshot({ path: join(ROOT, 'docs', 'ui-screenshot.png') });

    // the first server ends: its card says so
    await alpha.close();
    await expect.poll(() => alphaCard.locator('.state').textContent(), { timeout: 15_000 }).toBe('exited 0');

    expect(errors).toEqual([]);
    expect(requests.every((r) => r.startsWith(`http://127.0.0.1:${port}/`))).toBe(true);
  });

  it('opens on the newest live session and follows it, on to newer ones, until another is picked', async () => {
    const gamma = liveLog(logs, 'gamma');
    gamma.request(2);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __live?: Live }).__live?.ready === true);
    // no click: the newest live session is open, and the header says it is followed
    await expect.poll(() => live(page, (l) => l.selected()?.session)).toBe(gamma.session);
    await expect.poll(() => page.locator('#session-head .follow.on').textContent()).toBe('following the newest live session');
    expect(await page.locator('#session-head h2').textContent()).toBe('gamma');
    await expect.poll(() => live(page, (l) => l.rowCount())).toBe(3);
    gamma.request(3);
    await expect.poll(() => live(page, (l) => l.rowCount())).toBe(6);

    // a newer live session starts: the page moves on to it
    const delta = liveLog(logs, 'delta');
    await expect.poll(() => live(page, (l) => l.selected()?.session), { timeout: 15_000 }).toBe(delta.session);
    expect(await page.locator('#session-head h2').textContent()).toBe('delta');

    // the person picks another — the button held down while the card's counts change under it (a live
    // session redraws its card several times a second) — and it stays there, also when a newer one starts
    const gammaCard = page.locator('.card[data-server="gamma"]');
    await heldClick(page, gammaCard, async () => {
      gamma.request(1);
      await expect.poll(() => gammaCard.locator('.n-req').textContent()).toBe('6 req');
    });
    await expect.poll(() => live(page, (l) => l.selected()?.session)).toBe(gamma.session);
    expect(await live(page, (l) => l.following())).toBe(false);
    // the header is drawn after the selection changes: wait for it
    await expect.poll(() => page.locator('#session-head .follow.on').count()).toBe(0);
    // a row's line clicked — held while an answer arrives and the list redraws — opens that row (an
    // answer: a new request would add a bar to the waterfall above and move the list under the pointer)
    const firstRequest = page.locator('#list .lrow[data-kind="request"]').first();
    // the waterfall above is drawn at most every 250 ms: press once it shows gamma's six requests (the list does not move after)
    await expect.poll(() => page.evaluate(() => (window as unknown as { __view: { waterfallBars(): string[] } }).__view.waterfallBars().length)).toBe(6);
    await heldClick(page, firstRequest.locator('.lhead'), async () => {
      gamma.answer(3);
      await expect.poll(() => page.locator('#list .lrow').count()).toBe(8);
    });
    await expect.poll(() => page.locator('#list .lrow.open').count()).toBe(1);
    expect(await page.locator('#list .lrow.open').getAttribute('data-seq')).toBe('2');
    // a bar clicked — held while the running session's open bars are redrawn longer — opens its message
    const bar = page.locator('#wf-body .bar[data-seq="4"]');
    const width = await bar.evaluate((e) => (e as HTMLElement).style.width);
    await heldClick(page, bar, async () => {
      await expect.poll(() => bar.evaluate((e) => (e as HTMLElement).style.width), { timeout: 10_000 }).not.toBe(width);
    });
    await expect.poll(() => page.locator('#list .lrow.sel').getAttribute('data-seq')).toBe('4');
    const epsilon = liveLog(logs, 'epsilon');
    await page.locator('.card[data-server="epsilon"]').waitFor({ timeout: 15_000 });
    gamma.request(1);
    await expect.poll(() => live(page, (l) => l.rowCount())).toBe(9);
    expect(await live(page, (l) => l.selected()?.session)).toBe(gamma.session);

    // following again opens the newest live session (the button held while rows redraw the head)
    await heldClick(page, page.locator('#follow'), async () => {
      gamma.request(1);
      await expect.poll(() => live(page, (l) => l.rowCount())).toBe(10);
      await expect.poll(() => page.locator('#session-head .figures').textContent()).toMatch(/^10 messages/);
    });
    await expect.poll(() => live(page, (l) => l.selected()?.session)).toBe(epsilon.session);
    await expect.poll(() => page.locator('#session-head .follow.on').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
