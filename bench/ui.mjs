#!/usr/bin/env node
// `npm run bench:ui`: how `mcp-tap ui` holds up in a real browser (Debian's chromium via playwright-core).
//  1. A 200,000-record session: time from selecting it to every row in the page, the rows request's
//     size, and the longest frame while the list is scrolled end to end.
//  2. Ten live sessions at 1,000 messages/s in total (ten logs appended by this script at 100 records/s
//     each, in 10 ms batches, for BENCH_UI_SECONDS): the delay from a record's time to the page holding
//     it (the selected session), the longest frame, and the CPU the UI server used.
// Medians of BENCH_UI_ROUNDS rounds (default 3). Needs `npm run build` first (npm run bench:ui does it).
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// the synthetic session lives with the tests (TypeScript): bundled here on the fly
const bundled = await build({ entryPoints: [join(root, 'test', 'helpers', 'synthetic-session.ts')], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'silent' });
const { syntheticSession } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`);
const ROUNDS = Number(process.env.BENCH_UI_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_UI_SECONDS ?? 10);
const HUGE = Number(process.env.BENCH_UI_RECORDS ?? 200_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return ((Number(parts[11]) + Number(parts[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
}

async function startUi(dir) {
  const child = spawn(process.execPath, [join(root, 'bin', 'mcp-tap.js'), 'ui', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise((res, rej) => {
    child.stdout.on('data', (s) => {
      out += s;
      const m = /^http:\S+$/m.exec(out);
      if (m) res(m[0]);
    });
    child.once('exit', () => rej(new Error('mcp-tap ui exited')));
  });
  return { child, url };
}

async function openPage(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.__live?.ready === true);
  // a frame meter: the longest gap between two animation frames since the last reset
  await page.evaluate(() => {
    window.__frames = { max: 0, last: performance.now() };
    const tick = (t) => {
      window.__frames.max = Math.max(window.__frames.max, t - window.__frames.last);
      window.__frames.last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return { page, errors };
}

const resetFrames = (page) => page.evaluate(() => { window.__frames.max = 0; window.__frames.last = performance.now(); });
const maxFrame = (page) => page.evaluate(() => window.__frames.max);

async function huge(browser) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-bench-ui-'));
  try {
    const recs = syntheticSession(HUGE);
    writeFileSync(join(dir, 'huge.jsonrpc.log'), recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const { child, url } = await startUi(dir);
    try {
      const { page, errors } = await openPage(browser, url);
      await page.locator('.card').first().waitFor();
      const t = Date.now();
      await page.locator('.card').first().click();
      await page.waitForFunction((n) => window.__live.rowCount() === n && document.querySelectorAll('#list .lrow').length > 0, recs.length, { timeout: 120_000 });
      const loadMs = Date.now() - t;
      const bytes = await page.evaluate(async () => {
        const s = window.__live.selected();
        return (await (await fetch(`/api/rows?log=${s.log}&session=${encodeURIComponent(s.session)}`)).arrayBuffer()).byteLength;
      });
      await resetFrames(page);
      for (let i = 1; i <= 20; i++) await page.evaluate((f) => { const l = document.getElementById('list'); l.scrollTop = l.scrollHeight * f; }, i / 20);
      await page.waitForTimeout(300);
      const scrollFrame = await maxFrame(page);
      await page.selectOption('#f-outcome', 'error');
      const tf = Date.now();
      await page.waitForFunction(() => /of/.test(document.getElementById('f-count').textContent));
      const filterMs = Date.now() - tf;
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      await page.close();
      return { records: recs.length, loadMs, rowsMiB: bytes / 1048576, scrollFrame, filterMs };
    } finally {
      child.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function live(browser) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-bench-ui-'));
  const N = 10;
  const files = Array.from({ length: N }, (_, i) => join(dir, `server-${i}.jsonrpc.log`));
  const seq = new Array(N).fill(0);
  const session = (i) => `bench-live-${i}`;
  const rec = (i, fields) => JSON.stringify({ v: 1, time: Date.now(), session: session(i), seq: ++seq[i], ...fields });
  files.forEach((f, i) => writeFileSync(f, rec(i, { from: 'proxy', kind: 'event', event: 'start', name: `server-${i}`, command: 'x', args: [] }) + '\n'));
  try {
    const { child, url } = await startUi(dir);
    try {
      const { page, errors } = await openPage(browser, url);
      await page.waitForFunction((n) => window.__live.cards().length === n, N);
      await page.locator('.card[data-server="server-0"]').click();
      await page.waitForFunction(() => window.__live.rowCount() >= 1);
      await resetFrames(page);
      const lags = [];
      await page.exposeFunction('__lag', (ms) => lags.push(ms));
      await page.evaluate(() => {
        const loop = () => {
          const t = window.__live.lastRowTime();
          if (t !== undefined) window.__lag(Date.now() - t);
          if (!window.__stopLag) setTimeout(loop, 50);
        };
        loop();
      });
      const cpu0 = cpuMs(child.pid);
      const t0 = Date.now();
      let sent = 0;
      let id = 0;
      while (Date.now() - t0 < SECONDS * 1000) {
        const due = Math.floor(((Date.now() - t0) / 1000) * 1000);
        while (sent < due) {
          const i = sent % N;
          id++;
          const line = sent % 2 === 0
            ? rec(i, { from: 'client', kind: 'request', id, method: 'tools/call', target: 'echo', bytes: 80, msg: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message: 'x'.repeat(40) } } } })
            : rec(i, { from: 'server', kind: 'response', id: id - 1, method: 'tools/call', target: 'echo', reqSeq: seq[i] - 1, ms: 1.5, bytes: 90, msg: { jsonrpc: '2.0', id: id - 1, result: { content: [{ type: 'text', text: 'x'.repeat(40) }] } } });
          appendFileSync(files[i], line + '\n');
          sent++;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      const wall = Date.now() - t0;
      await page.waitForFunction((n) => window.__live.rowCount() >= n, Math.floor(sent / N), { timeout: 30_000 });
      await page.evaluate(() => { window.__stopLag = true; });
      const frame = await maxFrame(page);
      const cpu = ((cpuMs(child.pid) - cpu0) / wall) * 100;
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      await page.close();
      return { msgPerS: (sent / wall) * 1000, lagMedian: median(lags), lagP95: pct(lags, 0.95), frame, serverCpu: cpu };
    } finally {
      child.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const H = [];
  const L = [];
  for (let r = 0; r < ROUNDS; r++) {
    H.push(await huge(browser));
    L.push(await live(browser));
    process.stderr.write(`round ${r + 1}/${ROUNDS}: ${JSON.stringify(H.at(-1))} ${JSON.stringify(L.at(-1))}\n`);
  }
  const m = (xs, k) => median(xs.map((x) => x[k]));
  console.log(`mcp-tap ui, medians of ${ROUNDS} rounds (machine shared: treat as rough)`);
  console.log(`${m(H, 'records')}-record session: all rows in the page ${m(H, 'loadMs')} ms after the click (rows ${m(H, 'rowsMiB').toFixed(1)} MiB); longest frame while scrolling ${m(H, 'scrollFrame').toFixed(0)} ms; outcome filter ${m(H, 'filterMs')} ms`);
  console.log(`10 live sessions, ${m(L, 'msgPerS').toFixed(0)} msg/s in total for ${SECONDS} s: record → page ${m(L, 'lagMedian')} ms median, ${m(L, 'lagP95')} ms p95; longest frame ${m(L, 'frame').toFixed(0)} ms; UI server CPU ${m(L, 'serverCpu').toFixed(0)}% of a core`);
} finally {
  await browser.close();
}
