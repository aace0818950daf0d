/**
 * `ui --open` keeps the token off every command line: the opener (recorded in memory here) is given the
 * file:// URL of a launch file — mode 0600 in a fresh 0700 directory, holding the tokened URL as a meta
 * refresh and a location.replace — never the URL itself; the file is gone once the UI stops. A failing
 * opener is a warning. Over real HTTP the guard lets a cross-site page load carrying the token through
 * (the launch file's redirect is one), answering it with the cookie and a same-origin hop only.
 * The real CLI with a fake xdg-open, and the real browser, are in test/e2e/ui-open.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeUiHandler, type WatchView } from '../../src/ui/handler.js';
import { launchPage, openBrowser, openCommand, type Opener } from '../../src/ui/open-browser.js';
import { runUi } from '../../src/ui/run-ui.js';
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

describe('openBrowser', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const) {
    it(`gives the ${platform} opener a 0600 launch file's URL, never the token`, async () => {
      const { opener, calls } = recorder();
      const warnings: string[] = [];
      const launch = await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), platform, parent: tmp.dir });
      expect(launch).not.toBeNull();
      await waitFor(() => calls.length === 1, 2000, 'the opener to be called');
      const { file, args } = calls[0]!;
      expect([file, ...args].filter((a) => a.includes(TOKEN))).toEqual([]);
      expect(args.at(-1)).toBe(launch!.url);
      const path = fileURLToPath(args.at(-1)!);
      expect(path).toBe(launch!.path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
      expect(dirname(dirname(path))).toBe(tmp.dir);
      expect(readFileSync(path, 'utf8')).toBe(launchPage(PAGE_URL));
      expect(warnings).toEqual([]);
      await launch!.remove();
      expect(existsSync(dirname(path))).toBe(false);
    });
  }

  it('warns when the opener fails, or throws, and still hands back the file to remove', async () => {
    for (const opener of [() => Promise.reject(new Error('ENOENT')), () => { throw new Error('sync'); }] as Opener[]) {
      const warnings: string[] = [];
      const launch = await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), platform: 'linux', parent: tmp.dir });
      await waitFor(() => warnings.length === 1, 2000, 'the warning');
      expect(warnings).toEqual(['could not open a browser (xdg-open); open the URL yourself']);
      await launch!.remove();
    }
  });

  it('warns, and opens nothing, when the launch file cannot be written', async () => {
    const { opener, calls } = recorder();
    const warnings: string[] = [];
    expect(await openBrowser(PAGE_URL, { opener, warn: (m) => warnings.push(m), platform: 'linux', parent: `${tmp.dir}/missing` })).toBeNull();
    expect(calls).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^could not write the page that opens the browser \(.*ENOENT.*\); open the URL yourself$/);
  });
});

describe('runUi --open', () => {
  it('prints the tokened URL, opens a launch file holding it, and removes the file when it stops', async () => {
    const { opener, calls } = recorder();
    const said: string[] = [];
    const ac = new AbortController();
    const run = runUi(
      { dir: tmp.dir, files: [], port: 0, open: true, redact: {}, version: '0.0.0-test', script: '' },
      { say: (l) => said.push(l), warn: () => {}, signal: ac.signal, opener },
    );
    try {
      await waitFor(() => calls.length === 1, 10_000, 'the opener to be called');
      const token = new URL(said[0]!).searchParams.get('token')!;
      expect(token.length).toBeGreaterThan(20);
      const { args } = calls[0]!;
      expect(args.filter((a) => a.includes(token))).toEqual([]);
      const path = fileURLToPath(args.at(-1)!);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).toBe(launchPage(said[0]!));
      ac.abort();
      await run;
      expect(existsSync(dirname(path))).toBe(false);
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
