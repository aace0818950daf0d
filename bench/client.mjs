#!/usr/bin/env node
// The bench's MCP-shaped client. Spawns a command (the echo server directly, or a proxy in front of it),
// does the initialize handshake, runs one workload, checks every answer, and prints one JSON line with
// the measurements on stdout.
//
//   node bench/client.mjs --workload <startup|echo|stream|long> [--size N] [--count N] [--inflight N]
//                         [--warmup N] [--samples N] -- <command> [args...]
//
// The spawned process is "the proxy" for CPU and memory: its utime+stime come from /proc/<pid>/stat and
// its peak RSS (VmHWM) from /proc/<pid>/status, read while it is still running (before its stdin is
// closed). With no proxy in front (direct), that process is the echo server itself.
import { spawn, execFileSync } from 'node:child_process';
import { onLines } from './lines.mjs';
import { writeEach, WRITE_EACH } from './write-each.mjs';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
if (sep === -1 || sep === argv.length - 1) fail('usage: client.mjs --workload W [options] -- <command> [args...]');
const command = argv.slice(sep + 1);
const opts = {};
for (let i = 0; i < sep; i += 2) {
  const k = argv[i];
  const v = argv[i + 1];
  if (!k?.startsWith('--') || v === undefined) fail(`bad option ${k}`);
  opts[k.slice(2)] = v;
}
const workload = opts.workload ?? 'echo';
const size = Number(opts.size ?? 1024);
const count = Number(opts.count ?? 1000);
const inflight = Math.max(1, Number(opts.inflight ?? 1));
const warmup = Number(opts.warmup ?? 0);
const samples = Number(opts.samples ?? 40);
const timeoutMs = Number(opts.timeout ?? 300_000);

function fail(message) {
  process.stdout.write(JSON.stringify({ ok: false, error: message }) + '\n');
  process.exit(1);
}

const now = () => performance.timeOrigin + performance.now();

let CLK_TCK = 100;
try {
  CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  // Linux default
}

/** utime+stime of a live process (or, with `thread`, of one of its threads), in seconds. */
function cpuSeconds(pid, thread) {
  try {
    const s = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** VmRSS and VmHWM of a live process, in bytes. */
function memory(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/** A cheap rolling checksum over a string from `from` on. */
function checksum(str, from = 0) {
  let h = 0;
  for (let i = from; i < str.length; i++) h = (Math.imul(h, 31) + str.charCodeAt(i)) | 0;
  return h;
}

// ---- payloads: a per-request tag (carries the id) + a shared body, so sends cost nothing and every
// answer is checked for its tag, its length and the checksum of its body.
const TAG = 12;
function makeBody(n) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~';
  let x = 0x2545f491;
  let block = '';
  for (let i = 0; i < 4093; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    block += alphabet[(x >>> 0) % alphabet.length];
  }
  const body = block.repeat(Math.ceil(n / block.length) + 1).slice(0, Math.max(0, n - TAG));
  return body;
}
const tagOf = (id) => `#${id.toString(36).padStart(TAG - 2, '0')}#`;

// ---- the child
const t0 = now();
const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
const pid = child.pid;
let stderrTail = '';
child.stderr.on('data', (c) => {
  stderrTail = (stderrTail + c.toString('utf8')).slice(-4000);
});
child.stdin.on('error', () => {});
let exited = null;
const exitPromise = new Promise((resolve) => {
  child.on('close', (code, signal) => {
    exited = { code, signal };
    resolve(exited);
  });
  child.on('error', (err) => fail(`spawn failed: ${err.message}`));
});

const pendingReq = new Map(); // id → resolve(msg)
let onNotification = null;
let received = 0;
let sent = 0;

function onLine(text) {
  received++;
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    abort(`the client received a line that is not JSON (${text.length} chars): ${JSON.stringify(text.slice(0, 120))}`);
    return;
  }
  if (msg.id !== undefined && msg.method === undefined) {
    const r = pendingReq.get(msg.id);
    if (!r) {
      abort(`answer with unknown id ${JSON.stringify(msg.id)}`);
      return;
    }
    pendingReq.delete(msg.id);
    r(msg);
  } else if (onNotification) onNotification(msg);
}

onLines(child.stdout, onLine);

// BENCH_WRITES=each: one write(2) per message, as an interactive host sends them (no writev batches)
const stdinFd = WRITE_EACH ? child.stdin._handle.fd : -1;
function write(line) {
  sent++;
  if (stdinFd >= 0) writeEach(stdinFd, line);
  else child.stdin.write(line);
}

function request(id, method, params) {
  return new Promise((resolve) => {
    pendingReq.set(id, resolve);
    write(`{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}\n`);
  });
}

let aborted = false;
function abort(message) {
  if (aborted) return;
  aborted = true;
  child.kill('SIGKILL');
  fail(`${message}${stderrTail ? ` | stderr: ${stderrTail.trim().slice(-600)}` : ''}`);
}
const watchdog = setTimeout(() => abort(`timed out after ${timeoutMs} ms (sent ${sent}, received ${received})`), timeoutMs);
exitPromise.then((e) => {
  if (!closing) abort(`the process exited early (code ${e.code}, signal ${e.signal})`);
});
let closing = false;

// ---- workloads
const result = { ok: true, workload, pid };

async function handshake() {
  const init = await request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'mcp-tap-bench', version: '1.0.0' },
  });
  const tInit = now();
  if (!init.result) abort(`initialize failed: ${JSON.stringify(init).slice(0, 200)}`);
  write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const meta = init.result._meta ?? {};
  result.startupMs = meta['bench/timeOrigin'] - t0;
  result.handshakeMs = tInit - t0;
  result.serverPid = meta['bench/pid'];
  result.afterHandshake = memory(pid);
}

/** `n` echo calls of `bytes` each, `depth` in flight; returns per-call latencies (ms) when asked. */
async function echoPhase(firstId, n, bytes, depth, latencies, onProgress) {
  const body = makeBody(bytes);
  const bodySum = checksum(body);
  let next = firstId;
  const last = firstId + n;
  let done = 0;
  await new Promise((resolve) => {
    if (n === 0) return resolve();
    const sendOne = () => {
      const id = next++;
      const tag = tagOf(id);
      const t = latencies ? performance.now() : 0;
      pendingReq.set(id, (msg) => {
        if (latencies) latencies.push(performance.now() - t);
        const text = msg.result?.content?.[0]?.text;
        if (typeof text !== 'string') return abort(`answer ${id} has no text: ${JSON.stringify(msg).slice(0, 200)}`);
        if (text.length !== TAG + body.length) return abort(`answer ${id}: payload of ${text.length} chars, sent ${TAG + body.length}`);
        if (!text.startsWith(tag)) return abort(`answer ${id} carries the payload of another request (${text.slice(0, TAG)})`);
        if (checksum(text, TAG) !== bodySum) return abort(`answer ${id}: payload checksum differs (corrupted in transit)`);
        done++;
        if (onProgress) onProgress(done);
        if (done === n) resolve();
        else if (next < last) sendOne();
      });
      write(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"payload":"${tag}${body}"}}}\n`,
      );
    };
    for (let i = 0; i < depth && next < last; i++) sendOne();
  });
  return next;
}

/** CPU of the proxy, the server and this client at the start of a measured phase. */
function cpuSnapshot() {
  const own = process.cpuUsage();
  return { proxy: cpuSeconds(pid), proxyMain: cpuSeconds(pid, pid), server: result.serverPid && result.serverPid !== pid ? cpuSeconds(result.serverPid) : NaN, client: (own.user + own.system) / 1e6 };
}

/** Records CPU seconds used since `snap`, in all and per 100,000 messages, for the three processes. */
function cpuSince(snap, messages) {
  const now = cpuSnapshot();
  const per = (x) => (x / messages) * 100_000;
  result.cpuSeconds = now.proxy - snap.proxy;
  result.cpuPer100k = per(result.cpuSeconds);
  // the same per message, in µs: the relay process (all its threads), and its main thread (the relay's)
  result.cpuUsPerMsg = (result.cpuSeconds / messages) * 1e6;
  result.mainUsPerMsg = ((now.proxyMain - snap.proxyMain) / messages) * 1e6;
  // the proxy's main thread alone; the rest is V8's helpers (compiler, GC) and libuv's pool (file writes)
  result.mainCpuPer100k = per(now.proxyMain - snap.proxyMain);
  result.serverCpuPer100k = per(now.server - snap.server);
  result.clientCpuPer100k = per(now.client - snap.client);
  // the two ends together (with no proxy in between, the spawned process is the server)
  result.peersCpuPer100k = (result.serverPid === pid ? result.cpuPer100k : result.serverCpuPer100k) + result.clientCpuPer100k;
  return result.cpuSeconds;
}

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

async function main() {
  await handshake();
  let id = 1;
  if (workload === 'startup') {
    // handshake only
  } else if (workload === 'echo') {
    if (size < TAG) abort(`--size must be at least ${TAG}`);
    id = await echoPhase(id, warmup, size, inflight, null);
    const cpu0 = cpuSnapshot();
    const lat = inflight === 1 ? [] : null;
    const msgs0 = sent + received;
    const t = now();
    id = await echoPhase(id, count, size, inflight, lat);
    const secs = (now() - t) / 1000;
    const messages = sent + received - msgs0;
    const cpu = cpuSince(cpu0, messages);
    result.seconds = secs;
    result.messages = messages;
    result.msgsPerSec = messages / secs;
    result.payloadMBps = (count * size) / (1024 * 1024) / secs;
    // both directions carry the payload
    result.cpuMsPerMiB = (cpu * 1000) / ((2 * count * size) / (1024 * 1024));
    if (lat) {
      lat.sort((a, b) => a - b);
      result.p50us = quantile(lat, 0.5) * 1000;
      result.p99us = quantile(lat, 0.99) * 1000;
      result.p999us = quantile(lat, 0.999) * 1000;
    }
  } else if (workload === 'stream') {
    let notes = 0;
    onNotification = (msg) => {
      if (msg.method !== 'notifications/message') return abort(`unexpected message ${JSON.stringify(msg).slice(0, 200)}`);
      notes++;
      if (msg.params?.data !== `${'n'.repeat(size)}${notes}`) abort(`notification ${notes} arrived damaged or out of order`);
    };
    const cpu0 = cpuSnapshot();
    const t = now();
    const msgs0 = sent + received;
    const answer = await request(id++, 'tools/call', { name: 'stream', arguments: { count, size } });
    const secs = (now() - t) / 1000;
    if (notes !== count || answer.result?.content?.[0]?.text !== String(count)) abort(`stream: ${notes} of ${count} notifications arrived`);
    const messages = sent + received - msgs0;
    cpuSince(cpu0, messages);
    result.seconds = secs;
    result.messages = messages;
    result.msgsPerSec = messages / secs;
  } else if (workload === 'long') {
    // `count` messages in all (both directions, handshake included), pipelined, with RSS sampled as it goes.
    const calls = Math.max(0, Math.floor((count - sent - received) / 2));
    const every = Math.max(1, Math.floor(calls / samples));
    const series = [];
    const t = now();
    const cpu0 = cpuSnapshot();
    id = await echoPhase(id, calls, size, inflight, null, (done) => {
      if (done % every === 0) series.push({ messages: sent + received, rss: memory(pid).rss });
    });
    const secs = (now() - t) / 1000;
    const m = memory(pid);
    series.push({ messages: sent + received, rss: m.rss });
    result.seconds = secs;
    result.msgsPerSec = (calls * 2) / secs;
    cpuSince(cpu0, calls * 2);
    result.series = series;
    // "start" is taken once 5% of the session has gone by (JIT and heap warmed up); the RSS right after
    // the handshake is reported too.
    const warm = series.find((s) => s.messages >= count * 0.05) ?? series[0];
    result.rssStart = warm.rss;
    result.rssEnd = m.rss;
    result.rssGrowth = m.rss - warm.rss;
    // the second half's trend, in bytes per million messages: a leak shows as a slope
    const half = series.filter((s) => s.messages >= count / 2);
    if (half.length >= 2) {
      const a = half[0];
      const b = half[half.length - 1];
      result.rssGrowthSecondHalf = b.rss - a.rss;
      result.rssSlopePerM = ((b.rss - a.rss) / (b.messages - a.messages)) * 1e6;
    }
  } else {
    abort(`unknown workload ${workload}`);
  }
  const mem = memory(pid);
  result.peakRss = mem.hwm;
  result.rss = mem.rss;
  result.cpuTotal = cpuSeconds(pid);
  result.sent = sent;
  result.received = received;
  closing = true;
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const e = await exitPromise;
  clearTimeout(killer);
  clearTimeout(watchdog);
  result.exit = e;
  if (e.code !== 0) {
    result.ok = false;
    result.error = `exit code ${e.code} signal ${e.signal}; stderr: ${stderrTail.trim().slice(-600)}`;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err) => abort(`client error: ${err?.stack ?? err}`));
