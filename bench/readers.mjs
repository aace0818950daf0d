/**
 * The reader bench: writes a large log (bench/gen-log.mjs: 100,000 tools/call round trips of 1 KiB,
 * 200,009 records, the shape the bench client makes through mcp-tap), then times each reader on it with
 * its peak RSS, beside two anchors measured in the same run on the same file: `jq -c .method` and
 * pino-pretty. Writes a "Readers" section into bench/results.md with PASS/MISS per target.
 *
 * Then the sick sessions (issue 28): the same number of pairs where every request carries a finding (the
 * client never sent initialize), where the server answers every call with an error, and where it answers
 * none; every reader's
 * peak RSS on each, and check in every format on a ~1 GB all-bad log. Written as the "Readers on sick
 * sessions" section. Last, the floods of bench/reader-floods.mjs ("Readers under floods").
 *
 *   npm run bench:readers
 *   BENCH_ROUNDS=1 BENCH_PAIRS=20000 node bench/readers.mjs     # quicker, not for quoting
 *   BENCH_ONLY=sick node bench/readers.mjs                      # only the sick sessions
 *   BENCH_ONLY=floods node bench/readers.mjs                    # only the floods (bench/reader-floods.mjs)
 *   BENCH_GB_PAIRS=0 …                                          # without the 1 GB log
 *
 * Peak RSS comes from GNU time (`/usr/bin/time -f %M`); without it the column says —.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLargeLog } from './gen-log.mjs';
import { floods } from './reader-floods.mjs';
import { writeSection } from './results-section.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TAP = process.env.BENCH_TAP ?? join(ROOT, 'bin', 'mcp-tap.js');
const PINO = join(ROOT, 'node_modules', 'pino-pretty', 'bin.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100_000);
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench', 'results.md');
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const ONLY = process.env.BENCH_ONLY ?? '';
/** Pairs of the ~1 GB all-bad log check is measured on (2,770 bytes a pair). */
const GB_PAIRS = Number(process.env.BENCH_GB_PAIRS ?? 370_000);

/** jq from PATH, else Debian's package when we may install it; null (with the reason) otherwise. */
function findJq() {
  const which = spawnSync('sh', ['-c', 'command -v jq'], { encoding: 'utf8' });
  if (which.status === 0) return { jq: which.stdout.trim() };
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.error('jq is missing: installing Debian\'s jq (apt-get install -y jq)');
    const r = spawnSync('apt-get', ['install', '-y', '-q', 'jq'], { stdio: 'inherit' });
    if (r.status === 0) return { jq: 'jq' };
  }
  return { jq: null, why: 'jq is not installed and could not be installed (install it: apt-get install jq); the jq anchor and the targets that use it are skipped' };
}

/** Runs argv with stdin from `input` (or nothing), stdout to /dev/null; wall seconds and peak RSS in MB. `ok`: exit codes that are no failure. */
function measure(argv, { input, env, ok = [0] } = {}) {
  return new Promise((resolve, reject) => {
    const stdin = input ? openSync(input, 'r') : 'ignore';
    const cmd = GNU_TIME ? [GNU_TIME, '-f', 'RSS %M', ...argv] : argv;
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: [stdin, 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      if (typeof stdin === 'number') closeSync(stdin);
      const m = /RSS (\d+)/.exec(err);
      // tail's own exit code is 0; check's is 1 when the log has findings (not here); anything else is a failure
      if (!ok.includes(code)) return reject(new Error(`${argv.join(' ')} exited ${code}: ${err.slice(-500)}`));
      resolve({ s, rssMb: m ? Number(m[1]) / 1024 : null });
    });
  });
}

/** `tail -f -n 10`: seconds until the history (10 records and the end separator) is on stdout. */
function measureFollow(log) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [TAP, 'tail', '-f', '-n', '10', log], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let done = false;
    child.stdout.on('data', (d) => {
      out += d;
      if (!done && out.split('\n').length > 11) {
        done = true;
        resolve({ s: Number(process.hrtime.bigint() - t0) / 1e9, rssMb: null });
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!done) reject(new Error(`tail -f exited ${code} before showing 10 records`));
    });
  });
}

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor((s.length - 1) / 2)];
};

/**
 * `mcp-tap ui --dir <dir>` until it has read the logs, then every row of its first session over
 * /api/rows: seconds from start to the last row, and the server's peak RSS (VmHWM, Linux).
 */
function measureUi(dir) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [TAP, 'ui', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    let done = false;
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`mcp-tap ui exited ${code}: ${err.slice(-500)}`));
    });
    child.stderr.on('data', async (d) => {
      err += d;
      if (done || !/serving/.test(err)) return;
      done = true;
      try {
        const url = new URL(/http:\S+/.exec(out)[0]);
        const base = `http://127.0.0.1:${url.port}`;
        const token = url.searchParams.get('token');
        const { cards } = await (await fetch(`${base}/api/sessions?token=${token}`)).json();
        const res = await fetch(`${base}/api/rows?log=${cards[0].log}&session=${cards[0].session}&token=${token}`);
        let rows = 0;
        for await (const c of res.body) for (const b of c) if (b === 10) rows++;
        if (rows !== cards[0].records) throw new Error(`ui sent ${rows} rows of ${cards[0].records}`);
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        const hwm = existsSync(`/proc/${child.pid}/status`) ? /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8')) : null;
        resolve({ s, rssMb: hwm ? Number(hwm[1]) / 1024 : null });
      } catch (e) {
        reject(e);
      } finally {
        child.kill('SIGTERM');
      }
    });
  });
}

/** Every reader on the two all-bad logs (and check on a ~1 GB one): the "Readers on sick sessions" section. */
async function sick() {
  const started = Date.now();
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const root = mkdtempSync(join(tmpdir(), 'mcp-tap-readers-sick-'));
  const tap = (...args) => [process.execPath, TAP, ...args];
  try {
    const shapes = [
      ['no-init', 'every request a finding (no initialize)', { handshake: false, requestNote: 'before-initialize' }],
      ['all-errors', 'every call answered with an error', { errorEvery: 1 }],
      ['never-answered', 'no call ever answered', { unanswered: true }],
    ];
    const logs = [];
    for (const [name, what, o] of shapes) {
      const dir = join(root, name);
      spawnSync('mkdir', ['-p', dir]);
      const log = join(dir, `${name}.jsonrpc.log`);
      const gen = await writeLargeLog(log, { pairs: PAIRS, ...o });
      console.error(`${name}: ${gen.records} records, ${(gen.bytes / 1e6).toFixed(0)} MB`);
      logs.push({ name, what, dir, log, gen });
    }
    const out = (dir, f) => ['-o', join(dir, f)];
    const readers = [
      ['stats', (l) => measure(tap('stats', l.log))],
      ['check (text)', (l) => measure(tap('check', l.log), { ok: [0, 1] })],
      ['check --format json', (l) => measure(tap('check', '--format', 'json', l.log, ...out(l.dir, 'c.json')), { ok: [0, 1] })],
      ['check --format sarif', (l) => measure(tap('check', '--format', 'sarif', l.log, ...out(l.dir, 'c.sarif')), { ok: [0, 1] })],
      ['check --format junit', (l) => measure(tap('check', '--format', 'junit', l.log, ...out(l.dir, 'c.xml')), { ok: [0, 1] })],
      ['export (Markdown)', (l) => measure(tap('export', l.log, ...out(l.dir, 'e.md')))],
      ['export --format html', (l) => measure(tap('export', '--format', 'html', l.log, ...out(l.dir, 'e.html')))],
      ['export --format jsonl', (l) => measure(tap('export', '--format', 'jsonl', l.log, ...out(l.dir, 'e.jsonl')))],
      ['tail --json', (l) => measure(tap('tail', '--json', l.log))],
      ['ls', (l) => measure(tap('ls', '--dir', l.dir))],
      ['ui (every row of the session)', (l) => measureUi(l.dir)],
    ];
    const samples = new Map(readers.map(([n]) => [n, logs.map(() => [])]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = readers.map((_, i) => readers[(i + round) % readers.length]);
      for (const [name, run] of order) {
        for (const [i, l] of logs.entries()) {
          const m = await run(l);
          samples.get(name)[i].push(m);
          console.error(`sick round ${round + 1}: ${name} on ${l.name} ${m.s.toFixed(2)} s${m.rssMb !== null ? `, ${m.rssMb.toFixed(0)} MB` : ''}`);
        }
      }
      // the outputs are not kept between rounds
      for (const l of logs) for (const f of ['c.json', 'c.sarif', 'c.xml', 'e.md', 'e.html', 'e.jsonl']) rmSync(join(l.dir, f), { force: true });
    }
    // check on a ~1 GB all-bad log, once per round
    let big = null;
    const bigRows = [];
    if (GB_PAIRS > 0) {
      const dir = join(root, 'gb');
      spawnSync('mkdir', ['-p', dir]);
      for (const l of logs) rmSync(l.log, { force: true }); // room on small temp disks
      const log = join(dir, 'no-init-1g.jsonrpc.log');
      big = await writeLargeLog(log, { pairs: GB_PAIRS, handshake: false, requestNote: 'before-initialize' });
      console.error(`1 GB log: ${big.records} records, ${(big.bytes / 1e6).toFixed(0)} MB`);
      for (const f of ['text', 'json', 'sarif', 'junit']) {
        const xs = [];
        for (let round = 0; round < ROUNDS; round++) {
          const m = await measure(tap('check', '--format', f, log, ...out(dir, `c.${f}`)), { ok: [0, 1] });
          xs.push(m);
          console.error(`1 GB round ${round + 1}: check --format ${f} ${m.s.toFixed(2)} s${m.rssMb !== null ? `, ${m.rssMb.toFixed(0)} MB` : ''}`);
        }
        bigRows.push([`check --format ${f}`, { s: median(xs.map((x) => x.s)), rssMb: median(xs.filter((x) => x.rssMb !== null).map((x) => x.rssMb)) }]);
      }
    }
    const med = (xs) => ({ s: median(xs.map((x) => x.s)), rssMb: median(xs.filter((x) => x.rssMb !== null).map((x) => x.rssMb)) });
    const rows = [...samples].map(([name, per]) => [name, per.map(med)]);
    writeSick({ rows, logs, big, bigRows, loadBefore, wall: (Date.now() - started) / 1000 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function writeSick({ rows, logs, big, bigRows, loadBefore, wall }) {
  const fmtMb = (m) => (m === null || m === undefined ? '—' : `${m.toFixed(0)} MB`);
  const cell = (m) => `${fmtMb(m.rssMb)} · ${m.s.toFixed(2)} s`;
  const all = [...rows.flatMap(([, per]) => per), ...bigRows.map(([, m]) => m)].filter((m) => m.rssMb !== null);
  const worst = all.length > 0 ? Math.max(...all.map((m) => m.rssMb)) : null;
  const section = [
    '<!-- readers-sick:start -->',
    '## Readers on sick sessions',
    '',
    `Produced by \`npm run bench:readers\` (bench/readers.mjs); method in docs/performance.md ("Sick sessions"). Logs of ${PAIRS.toLocaleString('en-US')} tools/call round trips written by bench/gen-log.mjs: ` +
      logs.map((l) => `*${l.name}*, ${l.what} (${l.gen.records.toLocaleString('en-US')} records, ${(l.gen.bytes / 1e6).toFixed(0)} MB)`).join('; ') +
      `. ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, medians of peak RSS (GNU time; the ui: VmHWM) and wall time; ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}; ` +
      `load average before → after: ${loadBefore} → ${loadavg().map((x) => x.toFixed(2)).join(' ')}; wall time ${wall.toFixed(0)} s.`,
    '',
    `| target | measured | |`,
    '|---|---|---|',
    `| peak RSS ≤ 128 MB for every reader on every all-bad log | highest ${fmtMb(worst)} | ${worst === null ? 'SKIPPED' : worst <= 128 ? 'PASS' : 'MISS'} |`,
    '',
    `| reader | ${logs.map((l) => l.name).join(' | ')} |`,
    `|---|${logs.map(() => '---:').join('|')}|`,
    ...rows.map(([name, per]) => `| \`${name}\` | ${per.map(cell).join(' | ')} |`),
    ...(big
      ? ['', `check on a ~1 GB all-bad log (*no-init*, ${GB_PAIRS.toLocaleString('en-US')} pairs: ${big.records.toLocaleString('en-US')} records, ${(big.bytes / 1e6).toFixed(0)} MB):`, '', '| reader | no-init 1 GB |', '|---|---:|', ...bigRows.map(([name, m]) => `| \`${name}\` | ${cell(m)} |`)]
      : []),
    '<!-- readers-sick:end -->',
    '',
  ].join('\n');
  writeSection(OUT, 'readers-sick', section);
  console.log(section);
}

async function main() {
  if (ONLY === '' || ONLY === 'healthy') await healthy();
  if (ONLY === '' || ONLY === 'sick') await sick();
  if (ONLY === '' || ONLY === 'floods') await floods();
}

async function healthy() {
  const started = Date.now();
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-readers-'));
  try {
    const log = join(dir, 'bench.jsonrpc.log');
    const gen = await writeLargeLog(log, { pairs: PAIRS });
    console.error(`log: ${gen.records} records, ${(gen.bytes / 1e6).toFixed(0)} MB`);
    const { jq, why } = findJq();
    if (!jq) console.error(why);
    const tap = (...args) => [process.execPath, TAP, ...args];
    /** name → how to run it */
    const commands = [
      ['mcp-tap --version (start-up floor)', () => measure(tap('--version'))],
      ['tail', () => measure(tap('tail', log))],
      ['tail --json', () => measure(tap('tail', '--json', log))],
      ['tail -n 10', () => measure(tap('tail', '-n', '10', log))],
      ['tail -f -n 10 (first screen)', () => measureFollow(log)],
      ['stats', () => measure(tap('stats', log))],
      ['check', () => measure(tap('check', log))],
      ['ls', () => measure(tap('ls', '--dir', dir))],
      ['export (Markdown)', () => measure(tap('export', log, '-o', join(dir, 'out.md')))],
      ['export --format html', () => measure(tap('export', '--format', 'html', log, '-o', join(dir, 'out.html')))],
      ['pino-pretty', () => measure([process.execPath, PINO], { input: log })],
      ...(jq ? [['jq -c .method', () => measure([jq, '-c', '.method', log])]] : []),
    ];
    const samples = new Map(commands.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // rotate the order so no command always runs first or after the heaviest
      const order = commands.map((_, i) => commands[(i + round) % commands.length]);
      for (const [name, run] of order) {
        const m = await run();
        samples.get(name).push(m);
        console.error(`round ${round + 1}: ${name} ${m.s.toFixed(2)} s${m.rssMb !== null ? `, ${m.rssMb.toFixed(0)} MB` : ''}`);
      }
    }
    const result = new Map([...samples].map(([name, xs]) => [name, { s: median(xs.map((x) => x.s)), rssMb: median(xs.filter((x) => x.rssMb !== null).map((x) => x.rssMb)) }]));
    writeReport({ result, records: gen.records, bytes: gen.bytes, jqWhy: why, loadBefore, wall: (Date.now() - started) / 1000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writeReport({ result, records, bytes, jqWhy, loadBefore, wall }) {
  const get = (n) => result.get(n);
  const fmtS = (s) => (s === null ? '—' : `${s.toFixed(2)} s`);
  const fmtMb = (m) => (m === null || m === undefined ? '—' : `${m.toFixed(0)} MB`);
  const rows = [...result].map(([name, m]) => `| \`${name}\` | ${fmtS(m.s)} | ${Math.round(records / m.s).toLocaleString('en-US')} | ${fmtMb(m.rssMb)} |`);
  const targets = [];
  const target = (what, measured, pass) => targets.push(`| ${what} | ${measured} | ${pass === null ? 'SKIPPED' : pass ? 'PASS' : 'MISS'} |`);
  const jq = get('jq -c .method');
  // every reader holds every message to its revision's schema (the spec lens): these are validation speeds too
  for (const n of ['stats', 'check', 'ls']) target(`\`${n}\` (validates every message) ≤ \`jq -c .method\``, jq ? `${fmtS(get(n).s)} vs ${fmtS(jq.s)} (${(get(n).s / jq.s).toFixed(2)}×)` : 'jq missing', jq ? get(n).s <= jq.s : null);
  const pino = get('pino-pretty');
  target('`tail` ≥ 2× pino-pretty records/s', `${Math.round(records / get('tail').s).toLocaleString('en-US')} vs ${Math.round(records / pino.s).toLocaleString('en-US')} records/s (${(pino.s / get('tail').s).toFixed(2)}×)`, pino.s / get('tail').s >= 2);
  for (const n of ['export (Markdown)', 'export --format html']) target(`\`${n}\` ≤ 2× \`stats\``, `${fmtS(get(n).s)} vs ${fmtS(get('stats').s)} (${(get(n).s / get('stats').s).toFixed(2)}×)`, get(n).s <= 2 * get('stats').s);
  for (const n of ['tail -n 10', 'tail -f -n 10 (first screen)']) target(`\`${n}\` < 0.3 s`, fmtS(get(n).s), get(n).s < 0.3);
  const rss = [...result].filter(([n]) => !['pino-pretty', 'jq -c .method'].includes(n) && result.get(n).rssMb !== null);
  const worst = rss.sort((a, b) => b[1].rssMb - a[1].rssMb)[0];
  target('peak RSS ≤ 128 MB for every reader', worst ? `highest: \`${worst[0]}\` ${fmtMb(worst[1].rssMb)}` : 'no RSS (GNU time missing)', worst ? worst[1].rssMb <= 128 : null);

  const section = [
    '<!-- readers:start -->',
    '## Readers',
    '',
    `Produced by \`npm run bench:readers\` (bench/readers.mjs); method in docs/performance.md ("Readers"). Log: ${records.toLocaleString('en-US')} records, ${(bytes / 1e6).toFixed(0)} MB, written by bench/gen-log.mjs. ` +
      `${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, medians; ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, ${new Date().toISOString()}; ` +
      `load average before → after: ${loadBefore} → ${loadavg().map((x) => x.toFixed(2)).join(' ')}; wall time ${wall.toFixed(0)} s.`,
    ...(jqWhy ? ['', `> ${jqWhy}`] : []),
    '',
    '| target | measured | |',
    '|---|---|---|',
    ...targets,
    '',
    '| command | time | records/s | peak RSS |',
    '|---|---:|---:|---:|',
    ...rows,
    '<!-- readers:end -->',
    '',
  ].join('\n');
  writeSection(OUT, 'readers', section);
  console.log(section);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
