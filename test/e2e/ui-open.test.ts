/**
 * `mcp-tap ui --open`, the built CLI, with a fake xdg-open (`open` on macOS) first on PATH: a real child
 * process that records its own argv and /proc/self/cmdline — what every local user can read — and then,
 * with Node's fetch, follows the launch file it was given to the page (the URL parsed out of the HTML,
 * the token moved into the cookie). The token is on no command line; the page answers 200 through the
 * file; the file is 0600 in a private directory, and gone once the UI stops. In Debian's chromium the
 * file:// launch page lands on the live page itself, with the token out of the address bar.
 *
 * Without /usr/bin/chromium the browser test is skipped locally and fails in CI (CI is set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { browserTests, CHROMIUM } from '../helpers/browser.js';
import { launchChromium } from '../helpers/fronts.js';
import { tempDir } from '../helpers/paths.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const MODE = browserTests();
const OPENER = process.platform === 'darwin' ? 'open' : 'xdg-open';

/** What the fake opener wrote. */
interface Opened {
  argv: string[];
  cmdline: string[] | null;
  url?: string;
  first?: number;
  status?: number;
  title?: string;
  error?: string;
}

/** The fake opener: records argv, then fetches the page the launch file redirects to; writes `record` atomically. */
function fakeOpener(record: string): string {
  return `#!${process.execPath}
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { fileURLToPath } = require('node:url');
const record = ${JSON.stringify(record)};
const argv = process.argv.slice(2);
const out = { argv, cmdline: existsSync('/proc/self/cmdline') ? readFileSync('/proc/self/cmdline', 'utf8').split('\\0') : null };
(async () => {
  try {
    const html = readFileSync(fileURLToPath(argv[argv.length - 1]), 'utf8');
    out.url = /<meta http-equiv="refresh" content="\\d+;url=([^"]+)">/.exec(html)[1];
    const first = await fetch(out.url, { redirect: 'manual' });
    out.first = first.status;
    const cookie = (first.headers.get('set-cookie') || '').split(';')[0];
    const page = await fetch(new URL('/', out.url), { headers: { cookie } });
    out.status = page.status;
    out.title = (/<title>([^<]*)<\\/title>/.exec(await page.text()) || [])[1];
  } catch (err) {
    out.error = String(err);
  }
  writeFileSync(record + '.part', JSON.stringify(out));
  renameSync(record + '.part', record);
})();
`;
}

if (MODE === 'fail') {
  describe('mcp-tap ui --open in a browser', () => {
    it('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error(`${CHROMIUM} is missing: the browser test of ui --open needs Debian's chromium package (apt-get install -y chromium; .ci/run installs it)`);
    });
  });
} else if (MODE === 'skip') {
  console.warn(`ui-open.test.ts: the browser test is SKIPPED — ${CHROMIUM} is missing (apt-get install -y chromium); under CI this is a failure`);
}

describe('mcp-tap ui --open', () => {
  let tmp: ReturnType<typeof tempDir>;
  let launches: string;
  let ui: TapRun;
  let url: string;
  let token: string;
  let opened: Opened;
  let browser: Browser | undefined;

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-ui-open-');
    const bin = join(tmp.dir, 'bin');
    const logs = join(tmp.dir, 'logs');
    launches = join(tmp.dir, 'tmp'); // TMPDIR: where the launch file's directory is made
    for (const d of [bin, logs, launches]) mkdirSync(d);
    const record = join(tmp.dir, 'opened.json');
    writeFileSync(join(bin, OPENER), fakeOpener(record), { mode: 0o755 });
    ui = runTap(['ui', '--open', '--dir', logs], { env: { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, TMPDIR: launches } });
    await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(ui.stdout().toString()), 15_000, `the URL on stdout; stderr: ${ui.stderr()}`);
    url = ui.stdout().toString().trim().split('\n')[0]!;
    token = new URL(url).searchParams.get('token')!;
    await waitFor(() => existsSync(record), 15_000, `the fake ${OPENER} to write ${record}; stderr: ${ui.stderr()}`);
    opened = JSON.parse(readFileSync(record, 'utf8')) as Opened;
  });

  afterAll(async () => {
    await browser?.close();
    ui?.kill();
    await ui?.exited().catch(() => {});
    tmp?.cleanup();
  });

  it('prints the tokened URL, and gives the opener no argument that holds the token', () => {
    expect(token.length).toBeGreaterThan(20);
    expect(opened.argv).toHaveLength(1);
    expect(opened.argv.filter((a) => a.includes(token))).toEqual([]);
    if (process.platform === 'linux') {
      expect(opened.cmdline!.length).toBeGreaterThan(1);
      expect(opened.cmdline!.filter((a) => a.includes(token))).toEqual([]);
    }
    expect(ui.stderr()).not.toContain('could not open a browser');
  });

  it('opens a 0600 launch file in a private directory that holds the URL', () => {
    const path = fileURLToPath(opened.argv[0]!);
    expect(dirname(dirname(path))).toBe(launches);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(readFileSync(path, 'utf8')).toContain(url);
  });

  it('leads to the page: the URL in the file moves the token into the cookie, and the page answers 200', () => {
    expect(opened.error).toBeUndefined();
    expect(opened.url).toBe(url);
    expect(opened.first).toBe(303);
    expect(opened.status).toBe(200);
    expect(opened.title).toBe('mcp-tap live');
  });

  it.skipIf(MODE !== 'run')('leads a real browser from the file:// page to the live page, the token out of the address bar', async () => {
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(opened.argv[0]!);
    await page.waitForURL((u) => u.origin === new URL(url).origin && u.pathname === '/' && u.search === '', { timeout: 15_000 });
    await page.waitForFunction(() => (window as unknown as { __live?: { ready: boolean } }).__live?.ready === true, undefined, { timeout: 15_000 });
    await expect.poll(() => page.locator('#conn').textContent()).toMatch(/^live/);
    expect(errors).toEqual([]);
  });

  it('removes the launch file and its directory when it stops', async () => {
    const dir = dirname(fileURLToPath(opened.argv[0]!));
    expect(existsSync(dir)).toBe(true);
    ui.child.kill('SIGTERM');
    expect((await ui.exited()).code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });
});

describe.skipIf(process.platform === 'win32')('mcp-tap ui --open stopped by SIGHUP (its terminal closed)', () => {
  it('removes the launch file and its directory, and exits 0', async () => {
    const tmp = tempDir('mcp-tap-ui-open-hup-');
    try {
      const bin = join(tmp.dir, 'bin');
      const launches = join(tmp.dir, 'tmp');
      for (const d of [bin, launches, join(tmp.dir, 'logs')]) mkdirSync(d);
      writeFileSync(join(bin, OPENER), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      const ui = runTap(['ui', '--open', '--dir', join(tmp.dir, 'logs')], { env: { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, TMPDIR: launches } });
      try {
        await waitFor(() => readdirSync(launches).some((d) => existsSync(join(launches, d, 'open.html'))), 15_000, `the launch file in ${launches}; stderr: ${ui.stderr()}`);
        ui.child.kill('SIGHUP');
        expect((await ui.exited()).code, ui.stderr()).toBe(0);
        expect(readdirSync(launches)).toEqual([]);
      } finally {
        ui.kill();
        await ui.exited().catch(() => {});
      }
    } finally {
      tmp.cleanup();
    }
  });
});
