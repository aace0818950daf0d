#!/usr/bin/env node
// `npm run bench:http`: what `mcp-tap http` adds on loopback. A keep-alive client makes tools/call round
// trips to a minimal upstream (bench/http-upstream.mjs) directly and through the tap (analysis + log),
// and through a bare Node relay (the floor, bench/bare-http-relay.mjs), alternating in rounds; reports the p50/p90 round trip and the time to the first byte of an SSE
// response, and the tap's added p50. Targets: added round-trip p50 <= 1 ms, SSE first byte within 1 ms.
//   BENCH_ROUNDS=n (default 5), BENCH_N=n round trips per round and configuration (default 1000)
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const here = dirname(fileURLToPath(import.meta.url));
const TAP = join(resolve(here, '..'), 'bin', 'mcp-tap.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const N = Number(process.env.BENCH_N ?? 1000);

function firstLine(child, re) {
  return new Promise((resolveLine, reject) => {
    const rl = createInterface({ input: child.stdout ?? child.stderr });
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    rl.on('line', (l) => {
      const m = re.exec(l);
      if (m) resolveLine(m[1]);
    });
  });
}

const upstream = spawn(process.execPath, [join(here, 'http-upstream.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
const upPort = await firstLine(upstream, /^(\d+)$/);
const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-bench-http-'));
const tap = spawn(process.execPath, [TAP, 'http', `http://127.0.0.1:${upPort}/mcp`, '--port', '0', ...(process.env.BENCH_NOLOG === '1' ? ['--no-log'] : ['--log', join(dir, 'bench.jsonrpc.log')])], { stdio: ['ignore', 'ignore', 'pipe'] });
const tapUrl = await new Promise((res, rej) => {
  const rl = createInterface({ input: tap.stderr });
  tap.once('exit', (c) => rej(new Error(`mcp-tap exited ${c}`)));
  rl.on('line', (l) => {
    const m = /listening on (\S+)/.exec(l);
    if (m) res(m[1]);
  });
});
const bare = spawn(process.execPath, [join(here, 'bare-http-relay.mjs'), upPort], { stdio: ['ignore', 'pipe', 'inherit'] });
const barePort = await firstLine(bare, /^(\d+)$/);
const CONFIGS = ['direct', 'bare', 'tap'];
const targets = { direct: `http://127.0.0.1:${upPort}/mcp`, bare: `http://127.0.0.1:${barePort}/mcp`, tap: tapUrl };
const agents = Object.fromEntries(CONFIGS.map((c) => [c, new Agent({ keepAlive: true, maxSockets: 1 })]));

/** One exchange: ms to the first body byte and to the end of the response. */
function exchange(which, id, sse) {
  return new Promise((res, rej) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    const t0 = performance.now();
    let first = 0;
    const req = request(
      targets[which],
      { method: 'POST', agent: agents[which], headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'bench-session', ...(sse ? { 'x-sse': '1' } : {}) } },
      (r) => {
        r.on('data', () => {
          if (first === 0) first = performance.now() - t0;
        });
        r.on('end', () => res({ first, total: performance.now() - t0 }));
      },
    );
    req.on('error', rej);
    req.end(body);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs) => pct(xs, 50);

/** CPU time (user + sys, ms) a process has used so far; Linux only (null elsewhere). */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

const rt = { direct: [], bare: [], tap: [] };
const ttfb = { direct: [], bare: [], tap: [] };
let id = 0;
for (const which of CONFIGS) for (let i = 0; i < 200; i++) await exchange(which, ++id, i % 2 === 0); // warm-up
const cpuStart = { bare: cpuMs(bare.pid), tap: cpuMs(tap.pid) };
let measured = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const which of round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse()) {
    const r = [];
    const f = [];
    for (let i = 0; i < N; i++) r.push((await exchange(which, ++id, false)).total);
    for (let i = 0; i < N / 4; i++) f.push((await exchange(which, ++id, true)).first);
    if (which === 'tap') measured += N + N / 4;
    rt[which].push({ p50: median(r), p90: pct(r, 90) });
    ttfb[which].push(median(f));
  }
}
const cpuEnd = { bare: cpuMs(bare.pid), tap: cpuMs(tap.pid) };
tap.kill('SIGTERM');
upstream.kill('SIGTERM');
bare.kill('SIGTERM');
await new Promise((r) => tap.once('exit', r));
rmSync(dir, { recursive: true, force: true });

const fmt = (x) => x.toFixed(3);
const rtP50 = (w) => median(rt[w].map((x) => x.p50));
const rtP90 = (w) => median(rt[w].map((x) => x.p90));
const added = rtP50('tap') - rtP50('direct');
const addedFirst = median(ttfb.tap) - median(ttfb.direct);
console.log(`mcp-tap http bench: ${ROUNDS} rounds × ${N} tools/call round trips (+ ${N / 4} SSE responses) per configuration; ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| configuration | round trip p50 ms | p90 ms | SSE first byte p50 ms |');
console.log('|---|---|---|---|');
for (const w of CONFIGS) console.log(`| ${w} | ${fmt(rtP50(w))} | ${fmt(rtP90(w))} | ${fmt(median(ttfb[w]))} |`);
console.log(`a bare Node relay adds: round trip p50 ${fmt(rtP50('bare') - rtP50('direct'))} ms, SSE first byte ${fmt(median(ttfb.bare) - median(ttfb.direct))} ms`);
if (cpuStart.tap !== null && cpuEnd.tap !== null) {
  const per = (w) => ((cpuEnd[w] - cpuStart[w]) * 1000) / measured;
  console.log(`CPU (user+sys) per exchange: bare relay ${per('bare').toFixed(0)} µs, mcp-tap ${per('tap').toFixed(0)} µs (analysis, exchange record and log included)`);
}
console.log(`added by the tap: round trip p50 ${fmt(added)} ms (target ≤ 1 ms: ${added <= 1 ? 'met' : 'MISSED'}), SSE first byte ${fmt(addedFirst)} ms (target ≤ 1 ms: ${addedFirst <= 1 ? 'met' : 'MISSED'})`);
