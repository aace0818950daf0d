/**
 * `ui --open` keeps the token off every command line: the opener (recorded in memory here) is given the
 * file:// URL of a launch file — mode 0600, holding the tokened URL as a meta refresh and a
 * location.replace — never the URL itself. On Linux but WSL the file is `mcp-tap-ui-<pid>-<random>.html`
 * in the user's download directory (user-dirs.dirs' XDG_DOWNLOAD_DIR, else ~/Downloads: what snap and
 * Flatpak browsers can read); elsewhere, or without one, open.html in a fresh 0700 directory
 * `mcp-tap-ui-<pid>-<random>` of the temp dir. The file goes once a load of the page passes the guard —
 * the launch file's cross-site one, or one by the token in the URL from a browser that sends no
 * Sec-Fetch-Site — and in any case when the UI stops; one left by a killed `ui` goes when the next starts.
 * stderr names the file, never the token. A failing opener is a warning. The guard lets a cross-site page
 * load carrying the token through (the launch file's redirect is one), answering it with the cookie and
 * a same-origin hop only; the handler tells onPageLoad of every page load that passed it.
 * The real CLI with a fake xdg-open, and the real browser, are in test/e2e/ui-open.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeUiHandler, type WatchView } from '../../src/ui/handler.js';
import { launchFileName } from '../../src/ui/launch-name.js';
import { launchDir, launchPage, openBrowser, openCommand, realLaunchHost, writeLaunchFile, xdgDownloadDir, type LaunchHost, type Opener } from '../../src/ui/open-browser.js';
import { runUi, type UiIo } from '../../src/ui/run-ui.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = 'Zm9vYmFyYmF6cXV4LXRva2VuLTAxMjM0NTY3';
const PAGE_URL = `http://127.0.0.1:41873/?token=${TOKEN}`;

/** An opener that records what it was asked to run. */
function recorder(): { opener: Opener; calls: { file: string; args: readonly string[] }[] } {
  const calls: { file: string; args: readonly string[] }[] = [];
  return { calls, opener: async (file, args) => void calls.push({ file, args }) };
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir('mcp-tap-ui-open-');
});
afterEach(() => tmp.cleanup());

describe('the launch page', () => {
  it('redirects to the URL by script and by meta refresh', () => {
    const html = launchPage(PAGE_URL);
    expect(html).toContain(`<meta http-equiv="refresh" content="1;url=${PAGE_URL}">`);
    expect(html).toContain(`location.replace(${JSON.stringify(PAGE_URL)});`);
  });

  it('escapes what would end an attribute or the script', () => {
    const html = launchPage('http://127.0.0.1:1/?a="b"&c=</script><x>');
    expect(html).not.toContain('</script><x>');
    expect(html).not.toContain('"b"&c');
    expect(html).toContain('&#34;b&#34;&#38;c=&#60;/script&#62;&#60;x&#62;');
    expect(html).toContain('\\u003c/script>\\u003cx>');
  });
});

describe('the opener command', () => {
  it('is the platform opener with the target as its last and only free argument', () => {
    expect(openCommand('file:///t/open.html', 'linux')).toEqual({ file: 'xdg-open', args: ['file:///t/open.html'] });
    expect(openCommand('file:///t/open.html', 'darwin')).toEqual({ file: 'open', args: ['file:///t/open.html'] });
    expect(openCommand('file:///t/open.html', 'win32')).toEqual({ file: 'cmd', args: ['/c', 'start', '""', 'file:///t/open.html'] });
  });

  it("gives cmd a launch file URL with none of cmd's special characters, meaning the same file", () => {
    // Windows Node's pathToFileURL of C:\\Users\\R&D (x)^1,2;3=4!\\...: & ( ) , ; = ! left as they are (seen under Wine)
    const url = 'file:///C:/Users/R&D%20(x)%5E1,2;3=4!/AppData/Local/Temp/mcp-tap-ui-Ab1/open.html';
    const arg = openCommand(url, 'win32').args.at(-1)!;
    expect(arg).not.toMatch(/[&|<>^(),;=!"'\s]/);
    expect(decodeURIComponent(arg)).toBe(decodeURIComponent(url));
    expect(openCommand('file:///C:/Users/ann/AppData/Local/Temp/mcp-tap-ui-Ab1/open.html', 'win32').args.at(-1)).toBe('file:///C:/Users/ann/AppData/Local/Temp/mcp-tap-ui-Ab1/open.html');
  });
});

/** A machine in memory: `files` readable, `dirs` existing; home /home/ann, temp dir /tmp. */
function memHost(platform: NodeJS.Platform, files: Record<string, string> = {}, dirs: string[] = [], env: NodeJS.ProcessEnv = {}): LaunchHost {
  return { platform, env, home: '/home/ann', tmp: '/tmp', readText: (p) => files[p] ?? null, isDir: (p) => dirs.includes(p) };
}

describe('where the launch file goes', () => {
  const userDirs = 'XDG_DESKTOP_DIR="$HOME/Desktop"\n# a comment\nXDG_DOWNLOAD_DIR="$HOME/Téléchargements"\n';

  it("reads user-dirs.dirs' XDG_DOWNLOAD_DIR, $HOME expanded, the last one winning", () => {
    expect(xdgDownloadDir(userDirs, '/home/ann')).toBe('/home/ann/Téléchargements');
    expect(xdgDownloadDir('XDG_DOWNLOAD_DIR="${HOME}/dl"\nXDG_DOWNLOAD_DIR="/data/ann dl"\n', '/home/ann')).toBe('/data/ann dl');
    expect(xdgDownloadDir('XDG_DOWNLOAD_DIR="$HOMEWORK/x"', '/home/ann')).toBeNull();
    expect(xdgDownloadDir('XDG_DOWNLOAD_DIR="dl"', '/home/ann')).toBeNull();
    expect(xdgDownloadDir('XDG_MUSIC_DIR="$HOME/Music"', '/home/ann')).toBeNull();
  });

  it('on Linux: the download directory user-dirs.dirs names, when it exists', () => {
    const custom = '/home/ann/Téléchargements';
    expect(launchDir(memHost('linux', { '/home/ann/.config/user-dirs.dirs': userDirs }, [custom, '/home/ann/Downloads']))).toEqual({ kind: 'downloads', dir: custom });
    // $XDG_CONFIG_HOME's user-dirs.dirs, not ~/.config's
    const env = { XDG_CONFIG_HOME: '/home/ann/cfg' };
    expect(launchDir(memHost('linux', { '/home/ann/cfg/user-dirs.dirs': 'XDG_DOWNLOAD_DIR="/srv/dl"\n' }, ['/srv/dl'], env))).toEqual({ kind: 'downloads', dir: '/srv/dl' });
    // named but missing: ~/Downloads when it exists, else the temp dir
    expect(launchDir(memHost('linux', { '/home/ann/.config/user-dirs.dirs': userDirs }, ['/home/ann/Downloads']))).toEqual({ kind: 'downloads', dir: '/home/ann/Downloads' });
    expect(launchDir(memHost('linux', { '/home/ann/.config/user-dirs.dirs': userDirs }, []))).toEqual({ kind: 'temp', dir: '/tmp' });
  });

  it('on Linux: ~/Downloads without a user-dirs.dirs; the temp dir with neither', () => {
    expect(launchDir(memHost('linux', {}, ['/home/ann/Downloads']))).toEqual({ kind: 'downloads', dir: '/home/ann/Downloads' });
    expect(launchDir(memHost('linux', {}, []))).toEqual({ kind: 'temp', dir: '/tmp' });
  });

  it('on WSL (/proc/version or WSL_DISTRO_NAME), macOS and Windows: the temp dir, Downloads or not', () => {
    const files = { '/home/ann/.config/user-dirs.dirs': userDirs };
    const dirs = ['/home/ann/Downloads', '/home/ann/Téléchargements'];
    const wslVersion = { ...files, '/proc/version': 'Linux version 5.15.167.4-microsoft-standard-WSL2 (root@1) (gcc) #1 SMP' };
    expect(launchDir(memHost('linux', wslVersion, dirs))).toEqual({ kind: 'temp', dir: '/tmp' });
    expect(launchDir(memHost('linux', files, dirs, { WSL_DISTRO_NAME: 'Ubuntu' }))).toEqual({ kind: 'temp', dir: '/tmp' });
    expect(launchDir(memHost('darwin', files, dirs))).toEqual({ kind: 'temp', dir: '/tmp' });
    expect(launchDir(memHost('win32', files, dirs))).toEqual({ kind: 'temp', dir: '/tmp' });
    // a plain Linux /proc/version is not WSL
    expect(launchDir(memHost('linux', { ...files, '/proc/version': 'Linux version 6.1.0-13-amd64 (debian-kernel@lists.debian.org)' }, dirs)).kind).toBe('downloads');
  });
});

/** A fake home under `root` (with ~/Downloads when `downloads`) and a temp dir, on `platform`. */
function fakeMachine(root: string, platform: NodeJS.Platform, downloads: boolean): LaunchHost & { downloads: string } {
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  mkdirSync(home);
  mkdirSync(tmp);
  if (downloads) mkdirSync(join(home, 'Downloads'));
  return { ...realLaunchHost(), platform, env: {}, home, tmp, downloads: join(home, 'Downloads') };
}

describe('openBrowser', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    it(`gives the ${platform} opener a 0600 launch file's URL in a private temp directory${platform === 'linux' ? ' (no Downloads)' : ''}, never the token`, async () => {
      const host = fakeMachine(tmp.dir, platform, platform !== 'linux');
      const { opener, calls } = recorder();
      const warnings: string[] = [];
      const launch = await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), host });
      expect(launch).not.toBeNull();
      await waitFor(() => calls.length === 1, 2000, 'the opener to be called');
      const { file, args } = calls[0]!;
      expect([file, ...args].filter((a) => a.includes(TOKEN))).toEqual([]);
      expect(args.at(-1)).toBe(launch!.url);
      const path = fileURLToPath(args.at(-1)!);
      expect(path).toBe(launch!.path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
      expect(dirname(dirname(path))).toBe(host.tmp);
      expect(basename(dirname(path))).toMatch(new RegExp(`^mcp-tap-ui-${process.pid}-[A-Za-z0-9]{6}$`));
      expect(readFileSync(path, 'utf8')).toBe(launchPage(PAGE_URL));
      expect(warnings).toEqual([`opening the browser through ${path} (removed once the page loads); if it says the file is not found, open the URL above`]);
      // macOS and Windows have a Downloads here too: untouched
      if (platform !== 'linux') expect(readdirSync(host.downloads)).toEqual([]);
      await launch!.remove();
      expect(existsSync(dirname(path))).toBe(false);
      await launch!.remove();
    });
  }

  it("on Linux gives the opener a 0600 mcp-tap-ui-<pid>-<random>.html in the user's Downloads, and stderr its path only", async () => {
    const host = fakeMachine(tmp.dir, 'linux', true);
    const { opener, calls } = recorder();
    const warnings: string[] = [];
    const launch = await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), host });
    await waitFor(() => calls.length === 1, 2000, 'the opener to be called');
    const path = fileURLToPath(calls[0]!.args.at(-1)!);
    expect(dirname(path)).toBe(host.downloads);
    expect(path).toMatch(new RegExp(`/mcp-tap-ui-${process.pid}-[0-9a-f]{24}\\.html$`));
    expect(calls[0]!.args.filter((a) => a.includes(TOKEN))).toEqual([]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(launchPage(PAGE_URL));
    expect(readdirSync(host.tmp)).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    expect(warnings[0]).not.toContain(TOKEN);
    await launch!.remove();
    expect(readdirSync(host.downloads)).toEqual([]);
    await launch!.remove();
  });

  it('warns when the opener fails, or throws, and still hands back the file to remove', async () => {
    const host = fakeMachine(tmp.dir, 'linux', false);
    for (const opener of [() => Promise.reject(new Error('ENOENT')), () => { throw new Error('sync'); }] as Opener[]) {
      const warnings: string[] = [];
      const launch = await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), host });
      await waitFor(() => warnings.length === 2, 2000, 'the warning');
      expect(warnings[1]).toBe('could not open a browser (xdg-open); open the URL yourself');
      await launch!.remove();
    }
  });

  it('warns, and opens nothing, when the launch file cannot be written', async () => {
    const { opener, calls } = recorder();
    const warnings: string[] = [];
    const host = { ...fakeMachine(tmp.dir, 'linux', false), tmp: join(tmp.dir, 'missing') };
    expect(await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), host })).toBeNull();
    expect(calls).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^could not write the page that opens the browser \(.*ENOENT.*\); open the URL yourself$/);
  });
});

/** A page load from the launch file's page, as a browser sends it: cross-site, a navigation, the token in the URL. */
function launchLoad(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(u, { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('runUi --open', () => {
  /** Runs the UI with --open on a fake Linux machine with ~/Downloads; hands back what it said and the launch file. */
  async function start(writeLaunch?: UiIo['writeLaunch']): Promise<{ ac: AbortController; run: Promise<void>; url: string; token: string; path: string; warned: string[]; host: ReturnType<typeof fakeMachine> }> {
    const host = fakeMachine(tmp.dir, 'linux', true);
    const logs = join(tmp.dir, 'logs');
    mkdirSync(logs);
    const { opener, calls } = recorder();
    const said: string[] = [];
    const warned: string[] = [];
    const ac = new AbortController();
    const run = runUi(
      { dir: logs, files: [], port: 0, open: true, redact: {}, version: '0.0.0-test', script: '' },
      { say: (l) => said.push(l), warn: (m) => warned.push(m), signal: ac.signal, opener, launchHost: host, writeLaunch },
    );
    await waitFor(() => calls.length === 1, 10_000, 'the opener to be called');
    const token = new URL(said[0]!).searchParams.get('token')!;
    return { ac, run, url: said[0]!, token, path: fileURLToPath(calls[0]!.args.at(-1)!), warned, host };
  }

  it("prints the tokened URL, opens a 0600 launch file in Downloads holding it, names it on stderr without the token, and removes it when it stops", async () => {
    const ui = await start();
    try {
      expect(ui.token.length).toBeGreaterThan(20);
      expect(ui.path.includes(ui.token)).toBe(false);
      expect(dirname(ui.path)).toBe(ui.host.downloads);
      expect(statSync(ui.path).mode & 0o777).toBe(0o600);
      expect(readFileSync(ui.path, 'utf8')).toBe(launchPage(ui.url));
      const line = ui.warned.filter((m) => m.startsWith('opening the browser through '));
      expect(line).toEqual([`opening the browser through ${ui.path} (removed once the page loads); if it says the file is not found, open the URL above`]);
      expect(ui.warned.filter((m) => m.includes(ui.token))).toEqual([]);
      ui.ac.abort();
      await ui.run;
      expect(existsSync(ui.path)).toBe(false);
      expect(readdirSync(ui.host.downloads)).toEqual([]);
    } finally {
      ui.ac.abort();
      await ui.run;
    }
  });

  it("removes the launch file as soon as its page's load reaches the server", async () => {
    const ui = await start();
    try {
      expect(await launchLoad(ui.url)).toBe(200);
      await waitFor(() => !existsSync(ui.path), 5000, 'the launch file to go');
      expect(readdirSync(ui.host.downloads)).toEqual([]);
    } finally {
      ui.ac.abort();
      await ui.run;
    }
  });

  it('removes the launch file when the page loaded while it was being written', async () => {
    // the page loads (by the printed URL) after --open began and before its file is there
    const ui = await start(async (url, where) => {
      expect(await new Promise<number>((resolve, reject) => request(url, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject).end())).toBe(303);
      return writeLaunchFile(url, where);
    });
    try {
      await waitFor(() => !existsSync(ui.path), 5000, 'the launch file to go');
      expect(readdirSync(ui.host.downloads)).toEqual([]);
    } finally {
      ui.ac.abort();
      await ui.run;
    }
  });

  it('removes the launch file once the page loads by the token in the URL, with no Sec-Fetch-Site, and not for refused or API requests', async () => {
    const ui = await start();
    try {
      const port = new URL(ui.url).port;
      const get = (path: string, headers: Record<string, string> = {}): Promise<number> =>
        new Promise((resolve, reject) => request(`http://127.0.0.1:${port}${path}`, { headers }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject).end());
      expect(await get('/?token=wrong')).toBe(403);
      expect(await get(`/?token=${ui.token}`, { host: `evil.example:${port}` })).toBe(403);
      expect(await get(`/api/sessions?token=${ui.token}`)).toBe(200);
      expect(existsSync(ui.path)).toBe(true);
      // an older browser's load through the launch file: no Sec-Fetch-* headers, so by query
      expect(await get(`/?token=${ui.token}`)).toBe(303);
      await waitFor(() => !existsSync(ui.path), 5000, 'the launch file to go');
      expect(readdirSync(ui.host.downloads)).toEqual([]);
    } finally {
      ui.ac.abort();
      await ui.run;
    }
  });

  it('removes, at start, the launch files of killed runs in the directory it uses, and nothing else', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const host = fakeMachine(tmp.dir, 'linux', true);
    const stale = join(host.downloads, launchFileName(gone, 'a'.repeat(24)));
    const others = [launchFileName(process.ppid, 'b'.repeat(24)), `mcp-tap-ui-${'c'.repeat(24)}.html`, 'notes.html'];
    for (const name of [stale, ...others.map((n) => join(host.downloads, n))]) writeFileSync(name, 'x', { mode: 0o600 });
    const logs = join(tmp.dir, 'logs');
    mkdirSync(logs);
    const said: string[] = [];
    const warned: string[] = [];
    const ac = new AbortController();
    const run = runUi({ dir: logs, files: [], port: 0, open: false, redact: {}, version: '0.0.0-test', script: '' }, { say: (l) => said.push(l), warn: (m) => warned.push(m), signal: ac.signal, launchHost: host });
    try {
      await waitFor(() => said.length === 1, 10_000, 'the URL');
      expect(existsSync(stale)).toBe(false);
      expect(readdirSync(host.downloads).sort()).toEqual(others.sort());
      expect(warned).toContain(`removed 1 launch file(s) of ui --open runs that are gone: ${stale}`);
    } finally {
      ac.abort();
      await run;
    }
  });
});

describe('the guard, for the launch file', () => {
  const PORT = 43211;
  const watch: WatchView = { logs: [], snapshot: () => ({ type: 'hello', cards: [] }), problemList: () => [], on: () => () => {} };
  const handle = makeUiHandler({ token: TOKEN, port: PORT, watch, page: { html: '<p>page</p>', csp: "default-src 'none'" } });
  const navigation = { host: `127.0.0.1:${PORT}`, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  const get = (path: string, headers: Record<string, string>) => handle(new Request(`http://127.0.0.1:${PORT}${path}`, { headers }));

  it('answers a cross-site page load carrying the token with the cookie and a same-origin hop to /', async () => {
    const res = await get(`/?token=${TOKEN}`, navigation);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBe(`mcp-tap-ui-${PORT}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const body = await res.text();
    expect(body).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(body).not.toContain(TOKEN);
  });

  it('tells onPageLoad of every page load that passes the guard, whatever its headers, and of nothing else', async () => {
    let loads = 0;
    const told = makeUiHandler({ token: TOKEN, port: PORT, watch, page: { html: '<p>page</p>', csp: "default-src 'none'" }, onPageLoad: () => void loads++ });
    const ask = (path: string, headers: Record<string, string>, method = 'GET') => told(new Request(`http://127.0.0.1:${PORT}${path}`, { headers, method }));
    const host = { host: `127.0.0.1:${PORT}` };
    const cookie = { cookie: `mcp-tap-ui-${PORT}=${TOKEN}` };
    expect((await ask(`/?token=${TOKEN}`, { ...navigation, 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect((await ask(`/?token=${TOKEN.slice(0, -1)}`, navigation)).status).toBe(403);
    expect((await ask(`/?token=${TOKEN.slice(0, -1)}`, host)).status).toBe(403);
    expect((await ask(`/?token=${TOKEN}`, { host: `evil.example:${PORT}` })).status).toBe(403);
    expect((await ask('/', { ...host, cookie: `mcp-tap-ui-${PORT}=wrong` })).status).toBe(403);
    expect((await ask('/api/sessions', { ...host, ...cookie })).status).toBe(200);
    expect((await ask(`/api/sessions?token=${TOKEN}`, host)).status).toBe(200);
    expect((await ask('/', { ...host, ...cookie }, 'HEAD')).status).toBe(200);
    expect((await ask('/', { ...host, ...cookie }, 'POST')).status).toBe(405);
    expect(loads).toBe(0);
    expect((await ask(`/?token=${TOKEN}`, navigation)).status).toBe(200);
    expect((await ask(`/?token=${TOKEN}`, host)).status).toBe(303);
    expect((await ask('/', { ...host, ...cookie })).status).toBe(200);
    expect((await ask('/', { ...host, ...cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect(loads).toBe(4);
  });

  it('refuses every other cross-site request, with the token or without', async () => {
    const refused: [string, Record<string, string>][] = [
      [`/?token=${TOKEN}`, { ...navigation, 'sec-fetch-dest': 'iframe' }],
      [`/?token=${TOKEN}`, { ...navigation, 'sec-fetch-mode': 'no-cors' }],
      [`/?token=${TOKEN}`, { ...navigation, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }],
      [`/api/sessions?token=${TOKEN}`, navigation],
      [`/?token=${TOKEN.slice(0, -1)}`, navigation],
      ['/', { ...navigation, cookie: `mcp-tap-ui-${PORT}=${TOKEN}` }],
    ];
    for (const [path, headers] of refused) expect((await get(path, headers)).status, `${path} ${JSON.stringify(headers)}`).toBe(403);
  });
});
