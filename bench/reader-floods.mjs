/**
 * The readers under floods (issue 28 §6, the reader half): a writer appends to a log, in the documented
 * record format, (a) 50,000 notifications/message a second for 10 s, (b) 1,000,000 stderr lines as fast
 * as it can, while `mcp-tap tail -f` (stdout a file, read as it grows), `mcp-tap ui` (an event
 * stream client) and — when Debian's chromium is there — the live page follow it. Each reader must show
 * every record or say how many it skipped: shown + skipped = written. Reported: both counts, the lag
 * after the writer's last record until the reader has it, the reader's CPU and peak RSS.
 *
 *   node bench/reader-floods.mjs               # after npm run build; writes "Readers under floods" into bench/results.md
 *   BENCH_FLOOD_SECONDS=3 node bench/reader-floods.mjs
 *
 * The relay half (the proxy itself in front of such a server) is bench/run.js's; this measures readers only.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './results-section.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TAP = process.env.BENCH_TAP ?? join(ROOT, 'bin', 'mcp-tap.js');
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench', 'results.md');
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_FLOOD_RATE ?? 50_000);
const STDERR_LINES = Number(process.env.BENCH_FLOOD_STDERR ?? 1_000_000);
const CHROMIUM = '/usr/bin/chromium';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** /proc/<pid>: user+sys CPU seconds and peak RSS (MB). */
function procStats(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(f[11]) + Number(f[12])) / 100;
    const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpu, rssMb: hwm ? Number(hwm[1]) / 1024 : null };
  } catch {
    return { cpu: null, rssMb: null };
  }
}

/** A log being written: the start event now, then records appended by `flood`. */
function openLog(path, session) {
  let seq = 0;
  const fd = openSync(path, 'a', 0o600);
  const env = (from, kind) => `{"v":1,"time":${Date.now()},"session":"${session}","seq":${++seq},"from":"${from}","kind":"${kind}"`;
  writeSync(fd, `${env('proxy', 'event')},"event":"start","name":"flood","command":"node","args":["flood.mjs"],"cwd":"/tmp","pid":${process.pid}}\n`);
  return {
    seq: () => seq,
    close: () => closeSync(fd),
    notifications(n) {
      let text = '';
      for (let i = 0; i < n; i++) {
        const msg = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick ${seq + 1}"}}`;
        text += `${env('server', 'notification')},"method":"notifications/message","bytes":${msg.length},"msg":${msg}}\n`;
      }
      writeSync(fd, text);
    },
    stderr(n) {
      let text = '';
      for (let i = 0; i < n; i++) {
        const raw = `[worker] processed item ${seq + 1} of the batch`;
        text += `${env('server', 'stderr')},"bytes":${raw.length + 1},"raw":"${raw}"}\n`;
      }
      writeSync(fd, text);
    },
  };
}

/** Runs the writer: `kind` notifications at RATE/s for SECONDS, or STDERR_LINES stderr lines as fast as it can. Resolves when done. */
async function write(log, kind) {
  const t0 = Date.now();
  if (kind === 'notifications') {
    const total = RATE * SECONDS;
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((Date.now() - t0) / 1000) * RATE) + 500);
      if (due > sent) {
        log.notifications(due - sent);
        sent = due;
      }
      await sleep(10);
    }
  } else {
    for (let sent = 0; sent < STDERR_LINES; sent += 5000) {
      log.stderr(Math.min(5000, STDERR_LINES - sent));
      await new Promise((r) => setImmediate(r));
    }
  }
  return { ms: Date.now() - t0 };
}

/**
 * `mcp-tap tail -f -n 0` on the log, its stdout a file (a destination that never holds it back: the pace
 * is tail's own), read as it grows: records shown, skipped (from its notices).
 */
function startTail(path) {
  const outPath = `${path}.tail-out`;
  const fd = openSync(outPath, 'w');
  const child = spawn(process.execPath, [TAP, 'tail', '-f', '-n', '0', path], { stdio: ['ignore', fd, 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  closeSync(fd);
  let carry = '';
  let pos = 0;
  const s = { shown: 0, skipped: 0, lastSeq: 0, at: 0 };
  const rfd = openSync(outPath, 'r');
  const buf = Buffer.alloc(1 << 20);
  const poll = setInterval(() => {
    let n;
    let d = '';
    while ((n = readSync(rfd, buf, 0, buf.length, pos)) > 0) {
      pos += n;
      d += buf.toString('utf8', 0, n);
    }
    if (d === '') return;
    const text = carry + d;
    const lines = text.split('\n');
    carry = lines.pop();
    for (const l of lines) {
      const m = /^\S+\s+#(\d+) /.exec(l);
      if (m) {
        s.shown++;
        s.lastSeq = Number(m[1]);
        s.at = Date.now();
        continue;
      }
      const k = /^… skipped ([\d,]+) lines? of the log/.exec(l);
      if (k) s.skipped += Number(k[1].replace(/,/g, ''));
    }
  }, 10);
  child.on('exit', () => {
    clearInterval(poll);
    closeSync(rfd);
  });
  return { child, s, name: 'tail -f (stdout a file)' };
}

/** `mcp-tap ui --dir`, and an event-stream client counting the rows (and skipped rows) of the flood's session. */
async function startUi(dir, session) {
  const child = spawn(process.execPath, [TAP, 'ui', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      if (/serving/.test(err)) resolve();
    });
    child.once('exit', (c) => reject(new Error(`ui exited ${c}: ${err}`)));
  });
  const url = new URL(/http:\S+/.exec(out)[0]);
  const base = `http://127.0.0.1:${url.port}`;
  const token = url.searchParams.get('token');
  const s = { shown: 0, skipped: 0, lastSeq: 0, at: 0 };
  const ac = new AbortController();
  const res = await fetch(`${base}/api/events?token=${token}`, { signal: ac.signal });
  (async () => {
    const dec = new TextDecoder();
    let carry = '';
    try {
      for await (const chunk of res.body) {
        const text = carry + dec.decode(chunk, { stream: true });
        const parts = text.split('\n\n');
        carry = parts.pop();
        for (const p of parts) {
          if (!p.startsWith('data: ')) continue;
          const ev = JSON.parse(p.slice(6));
          if (ev.session !== session) continue;
          if (ev.type === 'rows') {
            s.shown += ev.rows.length;
            s.lastSeq = ev.rows.at(-1).s;
            s.at = Date.now();
          } else if (ev.type === 'skipped') s.skipped += ev.rows;
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  return { child, s, name: 'ui (event stream)', url: `${base}/?token=${token}`, stop: () => ac.abort() };
}

/** The live page in chromium: it opens on the flood's session by itself; rows held and rows it was told it missed. */
async function startPage(url) {
  if (!existsSync(CHROMIUM)) return null;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(() => window.__live?.ready === true);
  return {
    name: 'ui page (chromium)',
    read: () => page.evaluate(() => ({ rows: window.__live.rowCount(), skipped: window.__live.skipped(), selected: window.__live.selected()?.session })),
    close: () => browser.close(),
  };
}

async function scenario(kind) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-floods-'));
  const path = join(dir, 'flood.jsonrpc.log');
  const session = `flood-${kind}`;
  const log = openLog(path, session);
  try {
    const tail = startTail(path);
    const ui = await startUi(dir, session);
    const page = await startPage(ui.url);
    if (page) {
      const t = Date.now() + 15_000;
      while ((await page.read()).selected !== session && Date.now() < t) await sleep(50);
    }
    await sleep(500); // every reader is at the end of the log
    const cpu0 = { tail: procStats(tail.child.pid).cpu, ui: procStats(ui.child.pid).cpu };
    const w = await write(log, kind);
    const end = Date.now();
    const last = log.seq();
    const written = last - 1;
    // until each reader has the last record (or 60 s)
    const done = (s) => s.lastSeq >= last || s.shown + s.skipped >= written;
    const deadline = end + 60_000;
    while ((!done(tail.s) || !done(ui.s)) && Date.now() < deadline) await sleep(20);
    let pageResult = null;
    if (page) {
      let r = await page.read();
      while (r.rows - 1 + r.skipped < written && Date.now() < deadline) {
        await sleep(100);
        r = await page.read();
      }
      pageResult = { shown: r.rows - 1, skipped: r.skipped, lagMs: Date.now() - end };
    }
    const result = (r, pid, cpuBefore) => {
      const st = procStats(pid);
      return { shown: r.s.shown, skipped: r.s.skipped, lagMs: done(r.s) ? Math.max(0, r.s.at - end) : null, cpu: st.cpu !== null && cpuBefore !== null ? st.cpu - cpuBefore : null, rssMb: st.rssMb };
    };
    const out = {
      kind,
      written,
      writerMs: w.ms,
      readers: [
        { name: tail.name, ...result(tail, tail.child.pid, cpu0.tail) },
        { name: ui.name, ...result(ui, ui.child.pid, cpu0.ui) },
        ...(pageResult ? [{ name: page.name, ...pageResult, cpu: null, rssMb: null }] : []),
      ],
    };
    tail.child.kill('SIGTERM');
    ui.stop();
    ui.child.kill('SIGTERM');
    await page?.close();
    return out;
  } finally {
    log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both floods; writes the "Readers under floods" section. */
export async function floods() {
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const started = Date.now();
  const results = [];
  for (const kind of ['notifications', 'stderr']) {
    const r = await scenario(kind);
    console.error(JSON.stringify(r));
    results.push(r);
  }
  const fmt = (x, unit) => (x === null || x === undefined ? '—' : `${typeof x === 'number' ? x.toLocaleString('en-US', { maximumFractionDigits: 1 }) : x}${unit}`);
  const ok = (r, rd) => rd.shown + rd.skipped === r.written;
  const section = [
    '<!-- reader-floods:start -->',
    '## Readers under floods',
    '',
    `Produced by \`node bench/reader-floods.mjs\` (also run by \`npm run bench:readers\`); method in docs/performance.md ("Floods"). A writer appends to a log: ` +
      `${(RATE * SECONDS).toLocaleString('en-US')} notifications/message at ${RATE.toLocaleString('en-US')}/s, then (another log) ${STDERR_LINES.toLocaleString('en-US')} stderr lines as fast as it can; ` +
      `\`tail -f -n 0\` (stdout a file), \`ui\` (an event-stream client) and the live page in chromium follow it. ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}; ` +
      `load average before → after: ${loadBefore} → ${loadavg().map((x) => x.toFixed(2)).join(' ')}; wall time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    '',
    '| flood | reader | written | shown | skipped (said) | shown + skipped = written | lag after the last record | reader CPU | peak RSS |',
    '|---|---|---:|---:|---:|---|---:|---:|---:|',
    ...results.flatMap((r) =>
      r.readers.map(
        (rd) =>
          `| ${r.kind === 'notifications' ? `${RATE.toLocaleString('en-US')} notifications/s × ${SECONDS} s (writer ${(r.writerMs / 1000).toFixed(1)} s)` : `${STDERR_LINES.toLocaleString('en-US')} stderr lines (writer ${(r.writerMs / 1000).toFixed(1)} s)`} | ${rd.name} | ${r.written.toLocaleString('en-US')} | ${rd.shown.toLocaleString('en-US')} | ${rd.skipped.toLocaleString('en-US')} | ${ok(r, rd) ? 'yes' : '**no**'} | ${fmt(rd.lagMs, ' ms')} | ${fmt(rd.cpu, ' s')} | ${fmt(rd.rssMb === null ? null : Math.round(rd.rssMb), ' MB')} |`,
      ),
    ),
    '<!-- reader-floods:end -->',
    '',
  ].join('\n');
  writeSection(OUT, 'reader-floods', section);
  console.log(section);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  floods().catch((err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  });
}
