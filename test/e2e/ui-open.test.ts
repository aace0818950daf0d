/**
 * `mcp-tap ui --open`, the built CLI, with HOME a temp dir holding Downloads and a fake xdg-open (`open`
 * on macOS) first on PATH: a real child process that records its own argv and /proc/self/cmdline — what
 * every local user can read — and the launch file it was given (where, its mode, its HTML), and then
 * follows it to the page as a browser does (the URL parsed out of the HTML and loaded cross-site as a
 * navigation, the token moved into the cookie). The token is on no command line; on Linux (not WSL) the
 * file is 0600 in ~/Downloads, where snap and Flatpak browsers can read it (elsewhere in a private
 * directory of TMPDIR); the page answers 200 through it, and the file is gone once that load reached the
 * server — or, when nothing loads it, once the UI stops. In Debian's chromium the file:// launch page
 * lands on the live page itself, with the token out of the address bar. A browser that sends no
 * Sec-Fetch-* headers loads the page by query: the file goes then too. A `ui --open` killed with SIGKILL
 * leaves its file; the next `ui` (or `ui --open`) removes it, in Downloads or in the temp dir, and leaves
 * a running ui's file, other names, a symlink named like the killed one's and its target. Nor does it
 * remove the file of a writer it may not signal (another user's process), or a file of another user in
 * a directory it could remove it from (as root: the ui runs as nobody among root's files).
 *
 * Without /usr/bin/chromium the browser test is skipped locally and fails in CI (CI is set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { browserTests, CHROMIUM } from '../helpers/browser.js';
import { launchChromium } from '../helpers/fronts.js';
import { tempDir } from '../helpers/paths.js';
import { cliCopyForAnyone } from '../helpers/cli-copy.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const MODE = browserTests();
const OPENER = process.platform === 'darwin' ? 'open' : 'xdg-open';

/** What the fake opener wrote. */
interface Opened {
  argv: string[];
  cmdline: string[] | null;
  /** The launch file's mode and text, read before its page is loaded. */
  mode?: number;
  html?: string;
  url?: string;
  first?: number;
  status?: number;
  title?: string;
  error?: string;
}

/**
 * The fake opener: records argv and the launch file, then loads the page the launch file redirects to as
 * a browser does from a file:// page (node:http: fetch will not send Sec-Fetch-Mode: navigate) — or, with
 * `secFetch` false, as a browser that sends no Sec-Fetch-* headers — and the page with the cookie it got;
 * writes `record` atomically.
 */
function fakeOpener(record: string, secFetch = true): string {
  return `#!${process.execPath}
const { existsSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { fileURLToPath } = require('node:url');
const record = ${JSON.stringify(record)};
const argv = process.argv.slice(2);
const out = { argv, cmdline: existsSync('/proc/self/cmdline') ? readFileSync('/proc/self/cmdline', 'utf8').split('\\0') : null };
const navigate = (url) => new Promise((resolve, reject) => {
  const headers = ${secFetch ? "{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }" : '{}'};
  request(url, { headers }, (res) => { res.resume(); res.on('end', () => resolve(res)); }).on('error', reject).end();
});
(async () => {
  try {
    const path = fileURLToPath(argv[argv.length - 1]);
    out.mode = statSync(path).mode & 0o777;
    const html = readFileSync(path, 'utf8');
    out.html = html;
    out.url = /<meta http-equiv="refresh" content="\\d+;url=([^"]+)">/.exec(html)[1];
    const first = await navigate(out.url);
    out.first = first.statusCode;
    const cookie = String(first.headers['set-cookie'] || '').split(';')[0];
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

/** Whether this Linux is WSL, where the launch file stays in the temp dir (its browsers are Windows programs). */
const WSL = process.platform === 'linux' && ((process.env['WSL_DISTRO_NAME'] ?? '') !== '' || (existsSync('/proc/version') && /microsoft/i.test(readFileSync('/proc/version', 'utf8'))));

/**
 * A machine for ui --open under `root`: a fake opener in bin (`opener`: its script), HOME with Downloads
 * (no user-dirs.dirs: XDG_CONFIG_HOME points into it), TMPDIR; and where the launch file should land.
 */
function machine(root: string, opener: string, withDownloads = true): { env: NodeJS.ProcessEnv; downloads: string; launches: string; logs: string; inDownloads: boolean } {
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  const downloads = join(home, 'Downloads');
  const launches = join(root, 'tmp'); // TMPDIR: where the launch file's directory is made off Linux
  const logs = join(root, 'logs');
  for (const d of [bin, home, ...(withDownloads ? [downloads] : []), launches, logs]) mkdirSync(d);
  writeFileSync(join(bin, OPENER), opener, { mode: 0o755 });
  const env = { PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}`, TMPDIR: launches, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), WSL_DISTRO_NAME: '' };
  return { env, downloads, launches, logs, inDownloads: withDownloads && process.platform === 'linux' && !WSL };
}

/** A launch file's name (in Downloads) or its directory's (in the temp dir), of the `ui` with this pid. */
const launchName = (pid: number, inDownloads: boolean): RegExp => (inDownloads ? new RegExp(`^mcp-tap-ui-${pid}-[0-9a-f]{24}\\.html$`) : new RegExp(`^mcp-tap-ui-${pid}-[A-Za-z0-9]{6}$`));

describe('mcp-tap ui --open', () => {
  let tmp: ReturnType<typeof tempDir>;
  let m: ReturnType<typeof machine>;
  let ui: TapRun;
  let url: string;
  let token: string;
  let opened: Opened;
  let browser: Browser | undefined;

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-ui-open-');
    const record = join(tmp.dir, 'opened.json');
    m = machine(tmp.dir, fakeOpener(record));
    ui = runTap(['ui', '--open', '--dir', m.logs], { env: m.env });
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

  it("opens a 0600 launch file holding the URL in ~/Downloads on Linux (a private temp directory elsewhere), named on stderr without the token", () => {
    const path = fileURLToPath(opened.argv[0]!);
    if (m.inDownloads) {
      expect(dirname(path)).toBe(m.downloads);
      expect(basename(path)).toMatch(launchName(ui.pid, true));
      expect(readdirSync(m.launches)).toEqual([]);
    } else {
      expect(dirname(dirname(path))).toBe(m.launches);
      expect(basename(dirname(path))).toMatch(launchName(ui.pid, false));
    }
    expect(opened.mode).toBe(0o600);
    expect(opened.html).toContain(url);
    const line = ui.stderr().split('\n').filter((l) => l.includes('opening the browser through'));
    expect(line).toEqual([`mcp-tap: opening the browser through ${path} (removed once the page loads); if it says the file is not found, open the URL above`]);
    expect(ui.stderr()).not.toContain(token);
  });

  it('leads to the page: the file\'s page load gets the cookie and a hop, and the page answers 200', () => {
    expect(opened.error).toBeUndefined();
    expect(opened.url).toBe(url);
    expect(opened.first).toBe(200);
    expect(opened.status).toBe(200);
    expect(opened.title).toBe('mcp-tap live');
  });

  it('removes the launch file once its page load reached the server, while the UI runs on', async () => {
    const path = fileURLToPath(opened.argv[0]!);
    await waitFor(() => !existsSync(path), 10_000, `${path} to be removed; stderr: ${ui.stderr()}`);
    if (m.inDownloads) expect(readdirSync(m.downloads)).toEqual([]);
    else expect(readdirSync(m.launches)).toEqual([]);
    expect(ui.child.exitCode).toBeNull();
  });

  it.skipIf(MODE !== 'run')('leads a real browser from the file:// page to the live page, the token out of the address bar', async () => {
    // the launch file is gone (its load reached the server): the browser opens the same page, saved from the opener's record
    const copy = join(tmp.dir, 'launch-copy.html');
    writeFileSync(copy, opened.html!, { mode: 0o600 });
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(copy).href);
    await page.waitForURL((u) => u.origin === new URL(url).origin && u.pathname === '/' && u.search === '', { timeout: 15_000 });
    await page.waitForFunction(() => (window as unknown as { __live?: { ready: boolean } }).__live?.ready === true, undefined, { timeout: 15_000 });
    await expect.poll(() => page.locator('#conn').textContent()).toMatch(/^live/);
    expect(errors).toEqual([]);
  });

  it('exits 0 on SIGTERM, no launch file left', async () => {
    ui.child.kill('SIGTERM');
    expect((await ui.exited()).code).toBe(0);
    expect(readdirSync(m.downloads)).toEqual([]);
    expect(readdirSync(m.launches)).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('mcp-tap ui --open stopped by SIGHUP (its terminal closed) before the page loaded', () => {
  it('removes the launch file, and exits 0', async () => {
    const tmp = tempDir('mcp-tap-ui-open-hup-');
    try {
      // an opener that starts no browser: nothing loads the page, so only stopping removes the file
      const m = machine(tmp.dir, '#!/bin/sh\nexit 0\n');
      const where = m.inDownloads ? m.downloads : m.launches;
      const ui = runTap(['ui', '--open', '--dir', m.logs], { env: m.env });
      try {
        const found = (): boolean => readdirSync(where).some((f) => launchName(ui.pid, m.inDownloads).test(f));
        await waitFor(found, 15_000, `the launch file in ${where}; stderr: ${ui.stderr()}`);
        ui.child.kill('SIGHUP');
        expect((await ui.exited()).code, ui.stderr()).toBe(0);
        expect(readdirSync(where)).toEqual([]);
      } finally {
        ui.kill();
        await ui.exited().catch(() => {});
      }
    } finally {
      tmp.cleanup();
    }
  });
});

describe('mcp-tap ui --open in a browser that sends no Sec-Fetch-* headers', () => {
  it('removes the launch file once the page loads by the token in the URL, while the UI runs on', async () => {
    const tmp = tempDir('mcp-tap-ui-open-nofetch-');
    try {
      const record = join(tmp.dir, 'opened.json');
      const m = machine(tmp.dir, fakeOpener(record, false));
      const ui = runTap(['ui', '--open', '--dir', m.logs], { env: m.env });
      try {
        await waitFor(() => existsSync(record), 15_000, `the fake ${OPENER} to write ${record}; stderr: ${ui.stderr()}`);
        const opened = JSON.parse(readFileSync(record, 'utf8')) as Opened;
        expect(opened.error).toBeUndefined();
        // by query: the cookie and a redirect to /, then the page with the cookie
        expect(opened.first).toBe(303);
        expect(opened.status).toBe(200);
        expect(opened.title).toBe('mcp-tap live');
        const path = fileURLToPath(opened.argv[0]!);
        await waitFor(() => !existsSync(path), 10_000, `${path} to be removed; stderr: ${ui.stderr()}`);
        expect(readdirSync(m.inDownloads ? m.downloads : m.launches)).toEqual([]);
        expect(ui.child.exitCode).toBeNull();
        ui.child.kill('SIGTERM');
        expect((await ui.exited()).code).toBe(0);
      } finally {
        ui.kill();
        await ui.exited().catch(() => {});
      }
    } finally {
      tmp.cleanup();
    }
  });
});

describe.skipIf(process.platform === 'win32')('mcp-tap ui --open killed with SIGKILL before the page loaded', () => {
  for (const withDownloads of [true, false]) {
    const next = withDownloads ? 'ui' : 'ui --open';
    it(`leaves its launch file${withDownloads ? '' : ' (no Downloads: in the temp dir)'}, and the next \`${next}\` removes it, and nothing else`, async () => {
      const tmp = tempDir('mcp-tap-ui-open-kill-');
      const runs: TapRun[] = [];
      try {
        // an opener that starts no browser: nothing loads the page
        const m = machine(tmp.dir, '#!/bin/sh\nexit 0\n', withDownloads);
        const where = m.inDownloads ? m.downloads : m.launches;
        const killed = runTap(['ui', '--open', '--dir', m.logs], { env: m.env });
        runs.push(killed);
        const stale = await waitFor(() => readdirSync(where).find((f) => launchName(killed.pid, m.inDownloads).test(f)), 15_000, `the launch file in ${where}; stderr: ${killed.stderr()}`);
        // what must stay: a running ui's file (this test's pid), the naming before pids, another file, a
        // symlink named like the killed ui's file, and what it points to
        const running = m.inDownloads ? `mcp-tap-ui-${process.pid}-${'b'.repeat(24)}.html` : `mcp-tap-ui-${process.pid}-Zz9Zz9`;
        const target = join(tmp.dir, 'target.html');
        writeFileSync(target, 'keep me');
        const link = m.inDownloads ? `mcp-tap-ui-${killed.pid}-${'f'.repeat(24)}.html` : `mcp-tap-ui-${killed.pid}-Ln9Ln9`;
        const kept = [running, m.inDownloads ? `mcp-tap-ui-${'c'.repeat(24)}.html` : 'mcp-tap-ui-Cc9Cc9', 'notes.html', link];
        // a launch entry as ui writes one: a file in Downloads, a directory holding open.html in the temp dir
        const plant = (name: string): void => {
          if (m.inDownloads) return writeFileSync(join(where, name), 'x', { mode: 0o600 });
          mkdirSync(join(where, name));
          writeFileSync(join(where, name, 'open.html'), 'x', { mode: 0o600 });
        };
        plant(running);
        plant(kept[1]!);
        writeFileSync(join(where, 'notes.html'), 'x');
        symlinkSync(target, join(where, link));

        killed.child.kill('SIGKILL');
        expect((await killed.exited()).signal).toBe('SIGKILL');
        expect(readdirSync(where)).toContain(stale);

        const again = runTap(withDownloads ? ['ui', '--dir', m.logs] : ['ui', '--open', '--dir', m.logs], { env: m.env });
        runs.push(again);
        await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(again.stdout().toString()), 15_000, `the URL on stdout; stderr: ${again.stderr()}`);
        expect(readdirSync(where)).not.toContain(stale);
        expect(again.stderr()).toContain(`mcp-tap: removed 1 launch file(s) of ui --open runs that are gone: ${join(where, stale)}`);
        for (const name of kept) expect(readdirSync(where), name).toContain(name);
        expect(readFileSync(target, 'utf8')).toBe('keep me');
        again.child.kill('SIGTERM');
        expect((await again.exited()).code, again.stderr()).toBe(0);
        // the second run's own launch file (with --open) went when it stopped
        expect(readdirSync(where).sort()).toEqual([...kept].sort());
      } finally {
        for (const r of runs) {
          r.kill();
          await r.exited().catch(() => {});
        }
        tmp.cleanup();
      }
    });
  }
});

/** The real user id of a running process, from /proc. */
const ownerOf = (pid: number): number => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe.skipIf(process.platform !== 'linux' || WSL)('mcp-tap ui, sweeping launch files, where it cannot tell they are stale and its own', () => {
  it("keeps one whose writer is another user's process (it may not signal it) and, run as nobody by root, root's own", async () => {
    const tmp = tempDir('mcp-tap-ui-sweep-owner-');
    // as root, the ui runs as nobody among files of root's: both checks are then real
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65534 : process.getuid!();
    let ui: TapRun | null = null;
    // nobody may not enter the checkout (a fresh clone in a 0700 directory): it runs a copy
    const copy = asRoot ? cliCopyForAnyone() : null;
    try {
      const m = machine(tmp.dir, '#!/bin/sh\nexit 0\n');
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      const name = (pid: number, c: string): string => `mcp-tap-ui-${pid}-${c.repeat(24)}.html`;
      // pid 1 runs; it is another user's whenever the ui's user is not the one that runs it
      const othersRunning = name(1, 'a');
      const stale = name(gone, 'c');
      for (const f of [othersRunning, stale]) writeFileSync(join(m.downloads, f), 'x', { mode: 0o600 });
      if (asRoot) {
        const chownAll = (p: string): void => {
          chownSync(p, uid, uid);
          if (lstatSync(p).isDirectory()) for (const e of readdirSync(p)) chownAll(join(p, e));
        };
        chownAll(tmp.dir);
      }
      // root's file in a directory nobody may remove it from: only the owner check keeps it
      const roots = name(gone, 'b');
      if (asRoot) writeFileSync(join(m.downloads, roots), 'x', { mode: 0o600 });

      ui = runTap(['ui', '--dir', m.logs], { env: m.env, ...(copy !== null ? { uid, cli: copy.cli, cwd: tmp.dir } : {}) });
      const run = ui;
      await waitFor(() => /^http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m.test(run.stdout().toString()), 15_000, `the URL on stdout; stderr: ${run.stderr()}`);
      const left = readdirSync(m.downloads);
      // the sweep ran: the stale file of the ui's own user went
      expect(left).not.toContain(stale);
      if (ownerOf(1) !== uid) expect(left).toContain(othersRunning);
      if (asRoot) expect(left).toContain(roots);
      run.child.kill('SIGTERM');
      expect((await run.exited()).code, run.stderr()).toBe(0);
    } finally {
      ui?.kill();
      await ui?.exited().catch(() => {});
      tmp.cleanup();
      copy?.cleanup();
    }
  });
});
