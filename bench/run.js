#!/usr/bin/env node
// `npm run bench`: mcp-tap beside the floor (a bare Node relay) and the common reference (a line-by-line
// Python relay with a journal), alternating configurations over several rounds; medians and ratios
// printed as tables and written to bench/results.md. Method: docs/performance.md.
//
// Environment:
//   BENCH_QUICK=1      a fast smoke run: 1 round, small counts, the 64 MB and 1,000,000-message runs shrunk
//   BENCH_ROUNDS=n     rounds (default 5; quick 1)
//   BENCH_HUGE=0       skip the 64 MB results run;  BENCH_LONG=0  skip the 1,000,000-message session
//   BENCH_ONLY=a,b     only these workloads (startup,pingpong,pipelined,interactive,notify,large,huge,long) and cli (cold CLI starts)
//   BENCH_CONFIGS=a,b  only these configurations (direct,bare,journal,tap,tap-nolog,tap-secrets,tap-otlp,tap-ship,py); bare is always kept
//   BENCH_OUT=path     where to write the report (default bench/results.md)
//   BENCH_STRICT=1     exit 1 when a target is missed (a failed or corrupted run always exits 1)
//   BENCH_TAP=path     the mcp-tap to measure (default bin/mcp-tap.js of this checkout)
//   BENCH_TAP_B=path   also run another build's bin/mcp-tap.js (config tap-b, analysis + log): A/B a change
import { spawn, execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, cpus, totalmem, loadavg, release } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { measureCliCold } from './cli-cold.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? (QUICK ? 1 : 5)));
const HUGE = env.BENCH_HUGE !== '0';
const LONG = env.BENCH_LONG !== '0';
const OUT = env.BENCH_OUT ? resolve(env.BENCH_OUT) : join(here, 'results.md');
const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',')) : null;
const onlyConfigs = env.BENCH_CONFIGS ? new Set([...env.BENCH_CONFIGS.split(','), 'bare']) : null;

const NODE = process.execPath;
const ECHO = join(here, 'echo-server.mjs');
const CLIENT = join(here, 'client.mjs');
const TAP = env.BENCH_TAP ? resolve(env.BENCH_TAP) : join(root, 'bin', 'mcp-tap.js');
const MiB = 1024 * 1024;

/** The real python3 executable (not a pyenv shim script), or null when there is none. */
function findPython() {
  try {
    const exe = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return exe && existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}
const PYTHON = findPython();

// ---- a local OTLP/HTTP receiver for the --otlp configuration: answers 200, keeps nothing
let otlpUrl = null;
const OTLP_URL = () => otlpUrl;
if (!onlyConfigs || onlyConfigs.has('tap-otlp')) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  otlpUrl = `http://127.0.0.1:${server.address().port}`;
}

// ---- configurations: what the client spawns. ctx.dir is a fresh temp directory per run.
const CONFIGS = [
  { key: 'direct', label: 'direct (no hop)', cmd: () => [NODE, ECHO], proxy: false },
  { key: 'bare', label: 'bare Node relay', cmd: () => [NODE, join(here, 'bare-relay.mjs'), NODE, ECHO], proxy: true },
  { key: 'journal', label: 'bare relay + raw journal', cmd: (ctx) => [NODE, join(here, 'bare-journal.mjs'), join(ctx.dir, 'journal'), NODE, ECHO], proxy: true },
  { key: 'tap', label: 'mcp-tap (analysis + log)', cmd: (ctx) => [NODE, TAP, '--log', join(ctx.dir, 'jsonrpc.log'), '--', NODE, ECHO], proxy: true, log: 'jsonrpc.log' },
  { key: 'tap-nolog', label: 'mcp-tap --no-log', cmd: () => [NODE, TAP, '--no-log', '--', NODE, ECHO], proxy: true },
  // three secret-looking variables in the server's environment: every record is searched for their values
  {
    key: 'tap-secrets',
    label: 'mcp-tap, 3 secret env vars masked',
    cmd: (ctx) => ['env', 'BENCH_API_KEY=sk-bench-0123456789abcdef', 'BENCH_GITHUB_TOKEN=ghp_benchbenchbenchbench0123', 'BENCH_DB_PASSWORD=correct-horse-battery', NODE, TAP, '--log', join(ctx.dir, 'jsonrpc.log'), '--', NODE, ECHO],
    proxy: true,
    log: 'jsonrpc.log',
  },
  // the sinks beside the log (docs/observability.md): spans to a local OTLP receiver, records through a
  // pino transport (pino/file) into a second file
  { key: 'tap-otlp', label: 'mcp-tap --otlp', cmd: (ctx) => [NODE, TAP, '--log', join(ctx.dir, 'jsonrpc.log'), '--otlp', OTLP_URL(), '--', NODE, ECHO], proxy: true, log: 'jsonrpc.log' },
  {
    key: 'tap-ship',
    label: 'mcp-tap --ship pino/file',
    cmd: (ctx) => [NODE, TAP, '--log', join(ctx.dir, 'jsonrpc.log'), '--ship', 'pino/file', '--ship-options', JSON.stringify({ destination: join(ctx.dir, 'shipped.log') }), '--', NODE, ECHO],
    proxy: true,
    log: 'jsonrpc.log',
  },
  ...(env.BENCH_TAP_B
    ? [{ key: 'tap-b', label: `mcp-tap B (${env.BENCH_TAP_B})`, cmd: (ctx) => [NODE, resolve(env.BENCH_TAP_B), '--log', join(ctx.dir, 'jsonrpc.log'), '--', NODE, ECHO], proxy: true, log: 'jsonrpc.log' }]
    : []),
  ...(PYTHON
    ? [{ key: 'py', label: 'Python line relay + journal', cmd: (ctx) => [PYTHON, join(here, 'py-relay.py'), join(ctx.dir, 'journal'), NODE, ECHO], proxy: true }]
    : []),
].filter((c) => !onlyConfigs || onlyConfigs.has(c.key));

// ---- workloads
const q = (full, quick) => (QUICK ? quick : full);
const fmtInt = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '—');
const fmt1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '—');
const fmt2 = (v) => (Number.isFinite(v) ? v.toFixed(2) : '—');
const fmtMB = (v) => (Number.isFinite(v) ? (v / MiB).toFixed(1) : '—');

/** The pipelined workloads' columns: throughput, the relay's CPU per message (its thread, then all its threads), memory. */
const PIPELINED_METRICS = [
  { key: 'msgsPerSec', label: 'messages/s', fmt: fmtInt, better: 'higher' },
  { key: 'mainUsPerMsg', label: 'relay thread CPU µs / msg', fmt: fmt2, better: 'lower', proxyOnly: true, delta: true },
  { key: 'cpuUsPerMsg', label: 'relay process CPU µs / msg', fmt: fmt2, better: 'lower', proxyOnly: true, delta: true },
  { key: 'peersCpuPer100k', label: 'client + server CPU s / 100k', fmt: fmt2, better: 'lower' },
  { key: 'peakRss', label: 'proxy peak RSS (MiB)', fmt: fmtMB, better: 'lower', proxyOnly: true },
];

const WORKLOADS = [
  {
    key: 'startup',
    title: 'Startup: spawn of the proxy → the server process has started',
    args: ['--workload', 'startup'],
    repeat: q(4, 2),
    metrics: [
      { key: 'startupMs', label: 'server started after (ms)', fmt: fmt1, better: 'lower' },
      { key: 'handshakeMs', label: 'initialize answered after (ms)', fmt: fmt1, better: 'lower' },
    ],
  },
  {
    key: 'pingpong',
    title: 'Ping-pong: 1 KiB tools/call echo, one request in flight',
    args: ['--workload', 'echo', '--size', '1024', '--inflight', '1', '--count', String(q(3000, 300)), '--warmup', String(q(300, 50))],
    metrics: [
      { key: 'p50us', label: 'p50 round trip (µs)', fmt: fmtInt, better: 'lower' },
      { key: 'p99us', label: 'p99 round trip (µs)', fmt: fmtInt, better: 'lower' },
      { key: 'p999us', label: 'p99.9 round trip (µs)', fmt: fmtInt, better: 'lower' },
      { key: 'mainUsPerMsg', label: 'relay thread CPU µs / msg', fmt: fmt2, better: 'lower', proxyOnly: true, delta: true },
      { key: 'cpuUsPerMsg', label: 'relay process CPU µs / msg', fmt: fmt2, better: 'lower', proxyOnly: true, delta: true },
    ],
  },
  {
    key: 'pipelined',
    title: 'Pipelined, batching client: 1 KiB tools/call echo, 64 in flight, the messages of one turn in one writev',
    args: ['--workload', 'echo', '--size', '1024', '--inflight', '64', '--count', String(q(50_000, 5000)), '--warmup', String(q(5000, 500))],
    metrics: PIPELINED_METRICS,
  },
  {
    // what hosts send: one message per write(2), on both ends (BENCH_WRITES=each, bench/write-each.mjs)
    key: 'interactive',
    title: 'Pipelined, interactive client: 1 KiB tools/call echo, 64 in flight, one write(2) per message on both ends',
    args: ['--workload', 'echo', '--size', '1024', '--inflight', '64', '--count', String(q(50_000, 5000)), '--warmup', String(q(5000, 500))],
    env: { BENCH_WRITES: 'each' },
    metrics: PIPELINED_METRICS,
  },
  {
    key: 'notify',
    title: `Notification stream: the server sends ${q(100_000, 20_000).toLocaleString('en-US')} notifications/message, then the answer`,
    args: ['--workload', 'stream', '--count', String(q(100_000, 20_000)), '--size', '64'],
    metrics: [
      { key: 'msgsPerSec', label: 'messages/s', fmt: fmtInt, better: 'higher' },
      { key: 'cpuPer100k', label: 'proxy CPU s / 100k msgs', fmt: fmt2, better: 'lower', proxyOnly: true },
      { key: 'peersCpuPer100k', label: 'client + server CPU s / 100k', fmt: fmt2, better: 'lower' },
      { key: 'peakRss', label: 'proxy peak RSS (MiB)', fmt: fmtMB, better: 'lower', proxyOnly: true },
    ],
  },
  {
    key: 'large',
    title: 'Large: 4 MiB tools/call echo (4 MiB each way), one in flight',
    args: ['--workload', 'echo', '--size', String(4 * MiB), '--inflight', '1', '--count', String(q(12, 3)), '--warmup', '1'],
    metrics: [
      { key: 'payloadMBps', label: 'MiB/s (result payload)', fmt: fmt1, better: 'higher' },
      { key: 'cpuMsPerMiB', label: 'proxy CPU ms / MiB relayed', fmt: fmt1, better: 'lower', proxyOnly: true },
      { key: 'peakRss', label: 'proxy peak RSS (MiB)', fmt: fmtMB, better: 'lower', proxyOnly: true },
    ],
  },
  {
    key: 'huge',
    enabled: HUGE,
    title: QUICK ? 'Huge (quick: 8 MiB instead of 64 MiB): one in flight' : 'Huge: 64 MiB tools/call echo (64 MiB each way), one in flight',
    args: ['--workload', 'echo', '--size', String(q(64, 8) * MiB), '--inflight', '1', '--count', String(q(2, 1)), '--warmup', '0'],
    metrics: [
      { key: 'payloadMBps', label: 'MiB/s (result payload)', fmt: fmt1, better: 'higher' },
      { key: 'cpuMsPerMiB', label: 'proxy CPU ms / MiB relayed', fmt: fmt1, better: 'lower', proxyOnly: true },
      { key: 'peakRss', label: 'proxy peak RSS (MiB)', fmt: fmtMB, better: 'lower', proxyOnly: true },
    ],
  },
  {
    key: 'long',
    enabled: LONG,
    title: `Long session: ${q(1_000_000, 20_000).toLocaleString('en-US')} messages (256 B echo, 64 in flight), proxy RSS sampled`,
    args: ['--workload', 'long', '--size', '256', '--inflight', '64', '--count', String(q(1_000_000, 20_000))],
    rounds: 1,
    configs: ['bare', 'tap', 'tap-nolog', 'tap-b'],
    metrics: [
      { key: 'msgsPerSec', label: 'messages/s', fmt: fmtInt, better: 'higher' },
      { key: 'rssStart', label: 'RSS at 5% (MiB)', fmt: fmtMB, proxyOnly: true },
      { key: 'rssEnd', label: 'RSS at end (MiB)', fmt: fmtMB, proxyOnly: true },
      { key: 'rssGrowth', label: 'growth (MiB)', fmt: fmtMB, proxyOnly: true },
      { key: 'peakRss', label: 'peak RSS (MiB)', fmt: fmtMB, proxyOnly: true },
    ],
  },
].filter((w) => w.enabled !== false && (!only || only.has(w.key)));

// ---- running one measurement
function runClient(args, cmd, extraEnv = {}) {
  return new Promise((resolvePromise) => {
    const p = spawn(NODE, [CLIENT, ...args, '--', ...cmd], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv } });
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err = (err + c).slice(-4000)));
    p.on('close', () => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolvePromise(JSON.parse(line));
      } catch {
        resolvePromise({ ok: false, error: `client printed no result: ${(out + err).trim().slice(-500)}` });
      }
    });
  });
}

/** Reads an mcp-tap log back: records, message records (client/server lines), events, gaps, seq order. */
async function checkLog(path) {
  const out = { records: 0, messageRecords: 0, stderrRecords: 0, events: 0, lost: 0, seqOk: true, unreadable: 0 };
  if (!existsSync(path)) return { ...out, missing: true };
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let lastSeq = 0;
  for await (const line of rl) {
    if (line === '') continue;
    out.records++;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      out.unreadable++;
      continue;
    }
    if (rec.seq !== lastSeq + 1) out.seqOk = false;
    lastSeq = rec.seq;
    if (rec.kind === 'event' || rec.from === 'proxy') {
      out.events++;
      if (rec.event === 'gap') out.lost += Number(rec.lost ?? 0);
    } else if (rec.kind === 'stderr') out.stderrRecords++;
    else out.messageRecords++;
  }
  return out;
}

async function measure(workload, config) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-bench-'));
  try {
    const r = await runClient(workload.args, config.cmd({ dir }), workload.env);
    if (r.ok && config.log) {
      const log = await checkLog(join(dir, config.log));
      r.log = log;
      const expected = r.sent + r.received;
      r.logOk = !log.missing && log.messageRecords === expected && log.seqOk && log.lost === 0 && log.unreadable === 0;
      r.logExpected = expected;
    }
    return r;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- statistics
const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

// ---- the machine
function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // not Linux
  }
  let python = 'absent';
  if (PYTHON) {
    try {
      python = execFileSync(PYTHON, ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      python = 'present';
    }
  }
  let build = TAP;
  if (!env.BENCH_TAP) {
    try {
      const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
      build = `this checkout (commit ${head}${dirty ? ', with uncommitted changes in src/' : ''})`;
    } catch {
      build = 'this checkout';
    }
  }
  return {
    build,
    cpu,
    cores: cpus().length,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    python,
    kernel: `${process.platform} ${release()}`,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/** CPU seconds the whole machine spent busy, and this process tree spent (own + reaped descendants). */
function cpuAccount() {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    const all = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    const busy = all[0] + all[1] + all[2] + all[5] + all[6] + all[7];
    const self = readFileSync('/proc/self/stat', 'utf8');
    const f = self.slice(self.lastIndexOf(')') + 2).split(' ').map(Number);
    // utime stime cutime cstime: fields 14–17, i.e. 11–14 after the command name
    const tree = f[11] + f[12] + f[13] + f[14];
    return { machine: busy / ticks, tree: tree / ticks, at: Date.now() };
  } catch {
    return null;
  }
}

/** Average cores used by processes other than the bench between two accounts. */
function foreignCores(a, b) {
  if (!a || !b) return NaN;
  return (b.machine - a.machine - (b.tree - a.tree)) / ((b.at - a.at) / 1000);
}

function rotate(list, n) {
  const k = n % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

// ---- main
async function main() {
  const started = Date.now();
  const load0 = loadavg();
  const acct0 = cpuAccount();
  const info = machine();
  const say = (s) => process.stderr.write(s + '\n');
  say(`mcp-tap bench: ${QUICK ? 'QUICK smoke run' : 'full run'}, ${ROUNDS} round(s), configs: ${CONFIGS.map((c) => c.key).join(', ')}`);
  say(`machine: ${info.cpu}, ${info.cores} cores, ${info.memory}, node ${info.node}, ${info.python}; load ${load0.map((l) => l.toFixed(2)).join(' ')}`);
  if (!PYTHON) say('python3 not found: the Python reference relay is skipped');

  const results = {}; // workload → config → [result]
  const failures = [];
  for (const w of WORKLOADS) {
    results[w.key] = {};
    const configs = CONFIGS.filter((c) => !w.configs || w.configs.includes(c.key));
    const rounds = w.rounds ?? ROUNDS;
    const t = Date.now();
    for (let r = 0; r < rounds; r++) {
      for (let rep = 0; rep < (w.repeat ?? 1); rep++) {
        for (const c of rotate(configs, r + rep)) {
          const res = await measure(w, c);
          (results[w.key][c.key] ??= []).push(res);
          if (!res.ok) {
            failures.push(`${w.key}/${c.key} round ${r + 1}: ${res.error}`);
            say(`  ${w.key} ${c.key}: FAILED ${res.error}`);
          } else if (res.logOk === false) {
            failures.push(`${w.key}/${c.key} round ${r + 1}: log check failed ${JSON.stringify(res.log)} expected ${res.logExpected} message records`);
          }
        }
      }
      const line = configs
        .map((c) => {
          const last = results[w.key][c.key]?.at(-1);
          const m = w.metrics[0];
          return `${c.key} ${last?.ok ? m.fmt(last[m.key]) : 'FAILED'}`;
        })
        .join(' | ');
      say(`  ${w.key} round ${r + 1}/${rounds}: ${w.metrics[0].label}: ${line}`);
    }
    say(`  ${w.key}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  // the subcommands' own start (no server): bundle chunks loaded, nothing else
  const cli = !only || only.has('cli') ? measureCliCold(TAP, QUICK ? 3 : 9) : [];
  if (cli.length) say(`  cli cold: ${cli.map((c) => `${c.label} ${c.ms.toFixed(1)} ms`).join(' | ')}`);
  const load1 = loadavg();
  const foreign = foreignCores(acct0, cpuAccount());
  const elapsed = (Date.now() - started) / 1000;
  const report = buildReport({ info, load0, load1, foreign, elapsed, results, failures, cli });
  process.stdout.write(report.console);
  writeFileSync(OUT, `${report.markdown.trimEnd()}\n${keptSections(OUT)}`);
  say(`\nwritten to ${OUT} (${elapsed.toFixed(0)} s in all)`);
  if (failures.length > 0) process.exitCode = 1;
  if (env.BENCH_STRICT === '1' && report.missed > 0) process.exitCode = 1;
}

/** The sections the other bench scripts wrote into the results file (floods, readers), kept as they are. */
function keptSections(path) {
  if (!existsSync(path)) return '';
  const kept = [...readFileSync(path, 'utf8').matchAll(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0]);
  return kept.length > 0 ? `\n${kept.join('\n\n')}\n` : '';
}

/** Median of a metric over the successful runs of one configuration. */
function med(results, w, c, key) {
  const runs = (results[w]?.[c] ?? []).filter((r) => r.ok);
  return median(runs.map((r) => r[key]));
}

function targetsOf(results) {
  const T = [];
  const have = (w) => results[w]?.tap?.some((r) => r.ok) && results[w]?.bare?.some((r) => r.ok);
  const ratio = (w, key) => med(results, w, 'tap', key) / med(results, w, 'bare', key);
  // CPU per message over the bare relay's (µs), for every mcp-tap configuration measured: the whole
  // process for the tap with its log (every thread competes with the host and the server), the relay's
  // own thread for the sinks, whose exporters' work belongs to a worker by design
  const sign = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
  // CPU is counted in ticks: per-message values like 5.1000000000000005 − 3.1 must compare as the 2 they are, not 2.0000000000000004
  const exact = (x) => Math.round(x * 1e6) / 1e6;
  const relayCost = (w, label) => {
    for (const [key, limit, judged] of [['tap', 2, 'process'], ['tap-secrets', 3, 'thread'], ['tap-otlp', 3, 'thread'], ['tap-ship', 3, 'thread']]) {
      if (!results[w]?.[key]?.some((r) => r.ok)) continue;
      const thread = exact(med(results, w, key, 'mainUsPerMsg') - med(results, w, 'bare', 'mainUsPerMsg'));
      const all = exact(med(results, w, key, 'cpuUsPerMsg') - med(results, w, 'bare', 'cpuUsPerMsg'));
      const name = CONFIGS.find((c) => c.key === key)?.label ?? key;
      T.push(
        judged === 'process'
          ? { target: `${label}: relay process CPU per message ≤ bare + ${limit} µs (${name})`, value: `${sign(all)} µs (relay thread ${sign(thread)} µs)`, pass: all <= limit }
          : { target: `${label}: relay thread CPU per message ≤ bare + ${limit} µs (${name})`, value: `${sign(thread)} µs (whole process ${sign(all)} µs)`, pass: thread <= limit },
      );
    }
  };
  for (const [w, label] of [['pipelined', 'pipelined 1 KiB, batching client'], ['interactive', 'pipelined 1 KiB, interactive client']]) {
    if (!have(w)) continue;
    const tp = ratio(w, 'msgsPerSec');
    T.push({ target: `${label}: throughput ≥ 0.9× bare`, value: `${tp.toFixed(2)}×`, pass: tp >= 0.9 });
    const rss = ratio(w, 'peakRss');
    if (w === 'pipelined') T.push({ target: `${label}: peak RSS ≤ 1.5× bare`, value: `${rss.toFixed(2)}×`, pass: rss <= 1.5 });
    relayCost(w, label);
  }
  if (have('pingpong')) {
    const p = ratio('pingpong', 'p50us');
    T.push({ target: 'ping-pong 1 KiB: p50 latency ≤ 1.25× bare', value: `${p.toFixed(2)}×`, pass: p <= 1.25 });
    const p99 = ratio('pingpong', 'p99us');
    const p999 = ratio('pingpong', 'p999us');
    T.push({ target: 'ping-pong 1 KiB: p99 latency ≤ 1.5× bare', value: `${p99.toFixed(2)}× (p99.9: ${p999.toFixed(2)}×)`, pass: p99 <= 1.5 });
    // CPU per message in ping-pong is mostly the cost of waking up for each one: in the table, not a target
  }
  if (have('large')) {
    const p = ratio('large', 'payloadMBps');
    T.push({ target: '4 MiB results: MB/s ≥ 0.8× bare', value: `${p.toFixed(2)}×`, pass: p >= 0.8 });
  }
  if (have('huge')) {
    const p = ratio('huge', 'peakRss');
    T.push({ target: `${QUICK ? '8 MiB (quick stand-in for 64 MB)' : '64 MiB'} results: peak RSS ≤ 2× bare`, value: `${p.toFixed(2)}×`, pass: p <= 2 });
  }
  if (results.long?.tap?.some((r) => r.ok)) {
    const r = results.long.tap.find((x) => x.ok);
    const half = Number.isFinite(r.rssGrowthSecondHalf) ? `; over the second half ${(r.rssGrowthSecondHalf / 1e6).toFixed(1)} MB` : '';
    T.push({ target: 'long session: RSS growth < 20 MB', value: `${(r.rssGrowth / 1e6).toFixed(1)} MB from 5% to the end${half}`, pass: r.rssGrowth < 20e6 });
    T.push({
      target: 'long session: log message records = messages',
      value: `${fmtInt(r.log?.messageRecords)} / ${fmtInt(r.logExpected)} (+${r.log?.events ?? '?'} events)`,
      pass: r.logOk === true,
    });
  }
  if (have('startup')) {
    const d = med(results, 'startup', 'tap', 'startupMs') - med(results, 'startup', 'bare', 'startupMs');
    T.push({ target: 'startup: server spawned ≤ bare + 60 ms', value: `${d >= 0 ? '+' : ''}${d.toFixed(1)} ms`, pass: d <= 60 });
  }
  // every mcp-tap log of the run holds one record per message, in order, with no gap
  const taps = Object.values(results).flatMap((byConfig) => byConfig.tap ?? []).filter((r) => r.ok && r.log);
  if (taps.length > 0) {
    const bad = taps.filter((r) => !r.logOk).length;
    T.push({ target: 'every mcp-tap log: one record per message, seq in order, no gap', value: `${taps.length - bad}/${taps.length} runs`, pass: bad === 0 });
  }
  return T;
}

function table(header, rows, align = 'right') {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 || align === 'left' ? '---' : '---:')).join('|')}|`];
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

function buildReport({ info, load0, load1, foreign, elapsed, results, failures, cli = [] }) {
  // the load average counts the bench's own three processes; the CPU used by everything else is the measure
  const busy = Number.isFinite(foreign) ? foreign >= 0.15 : load0[0] >= 1;
  const md = [];
  md.push('# mcp-tap benchmark results', '');
  md.push(`Produced by \`npm run bench\` (bench/run.js); method in docs/performance.md. ${QUICK ? '**QUICK smoke run (BENCH_QUICK=1): small counts, 1 round — not for quoting.**' : ''}`, '');
  md.push('## Machine', '');
  md.push(
    table(
      ['', ''],
      [
        ['mcp-tap measured', info.build],
        ['CPU', info.cpu],
        ['cores', String(info.cores)],
        ['memory', info.memory],
        ['Node', info.node],
        ['Python', info.python],
        ['kernel', info.kernel],
        ['date', info.date],
        ['load average (1/5/15 min) before → after', `${load0.map((l) => l.toFixed(2)).join(' ')} → ${load1.map((l) => l.toFixed(2)).join(' ')}`],
        ['CPU used by other processes during the run', Number.isFinite(foreign) ? `${foreign.toFixed(2)} cores on average` : 'unknown'],
        ['rounds', String(ROUNDS)],
        ['wall time of the bench', `${elapsed.toFixed(0)} s`],
      ],
      'left',
    ),
  );
  if (busy) {
    md.push('', `**The machine was busy: other processes used ${Number.isFinite(foreign) ? `${foreign.toFixed(2)} of the ${info.cores} cores on average` : 'the cores (load average ≥ 1 before the run)'} during this run and competed with the bench, so the numbers are noisy.**`);
  }
  md.push('');

  const targets = targetsOf(results);
  md.push('## Targets (mcp-tap with analysis and logging on, against the bare Node relay, same run)', '');
  md.push(table(['target', 'measured', ''], targets.map((t) => [t.target, t.value, t.pass ? 'PASS' : '**MISS**']), 'left'));
  md.push('');

  for (const w of WORKLOADS) {
    const byConfig = results[w.key] ?? {};
    const configs = CONFIGS.filter((c) => byConfig[c.key]);
    md.push(`## ${w.title}`, '');
    const header = ['configuration'];
    for (const m of w.metrics) header.push(m.label, m.delta ? 'over bare' : '× bare');
    header.push('runs');
    const rows = configs.map((c) => {
      const row = [c.label];
      for (const m of w.metrics) {
        if (m.proxyOnly && !c.proxy) {
          row.push('n/a', '');
          continue;
        }
        const v = med(results, w.key, c.key, m.key);
        const b = med(results, w.key, 'bare', m.key);
        // CPU per message: what the configuration adds to the bare relay's, in µs
        if (m.delta) row.push(m.fmt(v), Number.isFinite(v - b) ? `${v - b >= 0 ? '+' : ''}${(v - b).toFixed(2)}` : '—');
        else row.push(m.fmt(v), Number.isFinite(v / b) && b !== 0 ? `${(v / b).toFixed(2)}` : '—');
      }
      const runs = byConfig[c.key];
      row.push(`${runs.filter((r) => r.ok).length}/${runs.length}`);
      return row;
    });
    md.push(table(header, rows));
    if (w.metrics.some((m) => m.key === 'peersCpuPer100k')) {
      // CPU arithmetic: how busy the machine was, and what the proxy may spend to keep 0.9× the throughput
      const cores = (c) => {
        const runs = (byConfig[c.key] ?? []).filter((r) => r.ok);
        return median(runs.map((r) => ((r.cpuPer100k * (c.proxy ? 1 : 0) + r.peersCpuPer100k) * r.msgsPerSec) / 100_000));
      };
      const used = configs.map((c) => `${c.key} ${fmt2(cores(c))}`).join(', ');
      const P = med(results, w.key, 'bare', 'peersCpuPer100k');
      const B = med(results, w.key, 'bare', 'cpuPer100k');
      const T = med(results, w.key, 'tap', 'cpuPer100k');
      md.push('', `CPU in use by client + proxy + server together (cores, of ${cpus().length}): ${used}.`);
      const threads = configs
        .filter((c) => c.proxy)
        .map((c) => {
          const total = med(results, w.key, c.key, 'cpuPer100k');
          const main = med(results, w.key, c.key, 'mainCpuPer100k');
          return `${c.key} ${fmt2(main)} + ${fmt2(total - main)}`;
        })
        .join(', ');
      md.push(
        '',
        `Proxy CPU s / 100k messages on its main thread (the relay) + its other threads (mcp-tap's analysis worker, V8 compiling and collecting garbage, libuv's pool): ${threads}.`,
      );
      if (Number.isFinite(P + B + T)) {
        const budget = (P + B) / 0.9 - P;
        md.push(
          '',
          `Budget: when the three processes are CPU-bound, throughput ≥ 0.9× the bare relay's leaves mcp-tap at most (${fmt2(P)} + ${fmt2(B)}) / 0.9 − ${fmt2(P)} = ${fmt2(budget)} CPU s per 100k messages (${fmt2(budget / B)}× the bare relay's ${fmt2(B)}); it used ${fmt2(T)}.`,
        );
      }
    }
    if (w.key === 'startup') {
      const b = med(results, 'startup', 'bare', 'startupMs');
      const extra = configs
        .filter((c) => c.key !== 'bare')
        .map((c) => `${c.label} ${(med(results, 'startup', c.key, 'startupMs') - b).toFixed(1)} ms`)
        .join('; ');
      md.push('', `Difference to the bare relay (server started after): ${extra}.`);
    }
    if (w.key === 'long') {
      for (const c of configs) {
        const r = byConfig[c.key].find((x) => x.ok);
        if (!r) continue;
        const slope = Number.isFinite(r.rssSlopePerM) ? `${(r.rssSlopePerM / MiB).toFixed(1)} MiB per million messages over the second half` : '';
        md.push(
          '',
          `${c.label}: RSS after the handshake ${fmtMB(r.afterHandshake?.rss)} MiB; samples (MiB) ${r.series.map((s) => fmtMB(s.rss)).join(' ')}${slope ? `; trend ${slope}` : ''}.`,
        );
        if (r.log) md.push('', `${c.label} log: ${fmtInt(r.log.records)} records = ${fmtInt(r.log.messageRecords)} message records (the client sent + received ${fmtInt(r.logExpected)}) + ${r.log.events} events; seq in order: ${r.log.seqOk}; gaps: ${r.log.lost}.`);
      }
    }
    md.push('');
  }

  if (cli.length) {
    md.push('## CLI cold start: spawn → exit, no server', '');
    md.push(table(['command', 'median ms', 'runs (ms)'], cli.map((c) => [c.label, c.ms.toFixed(1), c.runs.map((v) => v.toFixed(0)).join(', ')]), 'left'));
    md.push('');
  }

  md.push('## Per-round values', '', 'The first metric of each workload, per configuration, in run order (medians above).', '');
  for (const w of WORKLOADS) {
    const m = w.metrics[0];
    const byConfig = results[w.key] ?? {};
    const rows = CONFIGS.filter((c) => byConfig[c.key]).map((c) => [c.label, byConfig[c.key].map((r) => (r.ok ? m.fmt(r[m.key]) : 'failed')).join(', ')]);
    md.push(`**${w.key}** — ${m.label}`, '', table(['configuration', 'values'], rows, 'left'), '');
  }
  if (failures.length > 0) {
    md.push('## Failures', '');
    for (const f of failures) md.push(`- ${f}`);
    md.push('');
  }
  const markdown = md.join('\n');
  return { markdown, console: `\n${markdown}\n`, missed: targets.filter((t) => !t.pass).length };
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
  process.exitCode = 1;
});
