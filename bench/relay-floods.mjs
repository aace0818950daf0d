/**
 * The relay under floods (issue 28 §6, the relay half): a server (bench/flood-server.mjs) that, after
 * the handshake, writes 1,000,000 stderr lines as fast as the pipe takes them, or sends 50,000
 * notifications/message a second for 10 s — through a bare Node relay that pipes all three streams, and
 * through mcp-tap with a log. The host side counts every line that arrives. Reported per relay: how long
 * the flood took to reach the host, the relay's CPU, its RSS sampled through the flood (flat or growing)
 * and its peak; for mcp-tap, whether the log holds every line or states the gap (stderr records +
 * gap.lost = lines written). The reader half (tail -f, the UI following such a log) is
 * bench/reader-floods.mjs.
 *
 *   npm run bench:floods                            # both halves; writes "Relay under floods" into bench/results.md
 *   BENCH_FLOOD_SECONDS=3 BENCH_FLOOD_STDERR=200000 node bench/relay-floods.mjs    # quicker, not for quoting
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onLines } from './lines.mjs';
import { writeSection } from './results-section.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TAP = process.env.BENCH_TAP ?? join(ROOT, 'bin', 'mcp-tap.js');
const OUT = process.env.BENCH_OUT ?? join(ROOT, 'bench', 'results.md');
const SERVER = join(ROOT, 'bench', 'flood-server.mjs');
const SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_FLOOD_RATE ?? 50_000);
const STDERR_LINES = Number(process.env.BENCH_FLOOD_STDERR ?? 1_000_000);

/** A relay that pipes stdin, stdout and stderr with stream.pipe: the floor for stderr too (bench/bare-relay.mjs inherits stderr). */
const BARE_PIPES = `
import { spawn } from 'node:child_process';
const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stderr.pipe(process.stderr);
child.stdin.on('error', () => {});
child.on('close', (code) => process.stdout.end(() => process.exit(code ?? 1)));
`;

/** /proc/<pid>: user+sys CPU seconds, current and peak RSS (MB). */
function procStats(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
    return { cpu: (Number(f[11]) + Number(f[12])) / 100, rssMb: kb('VmRSS'), hwmMb: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** One flood through one relay: seconds until the host had all of it, CPU, RSS samples, what arrived. */
function runFlood(relayArgv, serverArgs, expect) {
  return new Promise((resolve, reject) => {
    const child = spawn(relayArgv[0], [...relayArgv.slice(1), process.execPath, SERVER, ...serverArgs], { stdio: ['pipe', 'pipe', 'pipe'] });
    let notifications = 0;
    let stderrLines = 0;
    let otherStderr = '';
    let done = false;
    let doneAt = null;
    const samples = [];
    const t0 = performance.now();
    const sampler = setInterval(() => {
      const s = procStats(child.pid);
      if (s) samples.push({ t: (performance.now() - t0) / 1000, rssMb: s.rssMb });
    }, 100);
    const finish = () => {
      if (done || doneAt === null || stderrLines < expect.stderr) return;
      done = true;
      const s = procStats(child.pid);
      clearInterval(sampler);
      child.stdin.end();
      child.once('close', () => resolve({ seconds: (doneAt - t0) / 1000, cpu: s?.cpu ?? null, hwmMb: s?.hwmMb ?? null, samples, notifications, stderrLines }));
    };
    onLines(child.stdout, (line) => {
      if (line.includes('"flood-done"')) {
        doneAt = performance.now();
        finish();
      } else if (line.includes('notifications/message')) notifications++;
    });
    onLines(child.stderr, (line) => {
      if (line.startsWith('working ')) stderrLines++;
      else otherStderr = (otherStderr + line + '\n').slice(-2000);
      if (doneAt !== null) finish();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!done) {
        clearInterval(sampler);
        reject(new Error(`${relayArgv.join(' ')} exited ${code} during the flood: ${otherStderr}`));
      }
    });
    child.stdin.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood-host","version":"1.0.0"}}}\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  });
}

/** What the log kept: stderr and notification records, and what gap records say was lost. */
function readLog(path) {
  const out = { stderr: 0, notifications: 0, lost: 0, gaps: 0 };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const r = JSON.parse(line);
    if (r.kind === 'stderr') out.stderr++;
    else if (r.kind === 'notification' && r.method === 'notifications/message' && r.msg?.params?.data !== 'flood-done') out.notifications++;
    else if (r.event === 'gap') {
      out.gaps++;
      out.lost += r.lost ?? 0;
    }
  }
  return out;
}

/** RSS at a quarter, half, three quarters and the end of the flood. */
function rssCurve(samples, seconds) {
  const at = (f) => samples.filter((s) => s.t <= f * seconds).pop()?.rssMb ?? null;
  return [0.25, 0.5, 0.75, 1].map(at);
}

export async function relayFloods() {
  const started = Date.now();
  const loadBefore = loadavg().map((x) => x.toFixed(2)).join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tap-relay-floods-'));
  const bare = join(dir, 'bare-pipes.mjs');
  writeFileSync(bare, BARE_PIPES);
  const floods = [
    { key: 'stderr', title: `${STDERR_LINES.toLocaleString('en-US')} stderr lines, as fast as the pipe takes them`, args: ['stderr', String(STDERR_LINES)], expect: { stderr: STDERR_LINES, notifications: 0 } },
    { key: 'notify', title: `${RATE.toLocaleString('en-US')} notifications/message a second for ${SECONDS} s`, args: ['notify', String(RATE), String(SECONDS)], expect: { stderr: 0, notifications: RATE * SECONDS } },
  ];
  const rows = [];
  try {
    for (const flood of floods) {
      for (const relay of ['bare', 'mcp-tap']) {
        const log = join(dir, `${flood.key}.jsonrpc.log`);
        const argv = relay === 'bare' ? [process.execPath, bare] : [process.execPath, TAP, '--log', log, '--'];
        const r = await runFlood(argv, flood.args, flood.expect);
        const kept = relay === 'mcp-tap' ? readLog(log) : null;
        const row = { flood, relay, ...r, curve: rssCurve(r.samples, r.seconds), kept };
        rows.push(row);
        console.error(`${flood.key} via ${relay}: ${r.seconds.toFixed(2)} s, CPU ${r.cpu?.toFixed(2)} s, peak ${r.hwmMb?.toFixed(0)} MB, RSS ${row.curve.map((m) => m?.toFixed(0)).join(' → ')} MB; host got ${r.stderrLines} stderr lines, ${r.notifications} notifications${kept ? `; log ${kept.stderr} stderr, ${kept.notifications} notifications, ${kept.gaps} gap records (${kept.lost} lost)` : ''}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  write(rows, { loadBefore, wall: (Date.now() - started) / 1000 });
}

function write(rows, { loadBefore, wall }) {
  const fmt = (x, unit = '', d = 0) => (x === null || x === undefined || Number.isNaN(x) ? '—' : `${x.toFixed(d)}${unit}`);
  const complete = (r) => r.stderrLines === r.flood.expect.stderr && r.notifications === r.flood.expect.notifications;
  const logged = (r) => (r.kept ? (r.flood.key === 'stderr' ? r.kept.stderr + r.kept.lost === r.flood.expect.stderr : r.kept.notifications + r.kept.lost === r.flood.expect.notifications) : null);
  const pace = floodsPairs(rows).map(([b, t]) => `${t.flood.key}: ${fmt(t.seconds, ' s', 2)} vs ${fmt(b.seconds, ' s', 2)} (${(t.seconds / b.seconds).toFixed(2)}×)`);
  const section = [
    '<!-- relay-floods:start -->',
    '## Relay under floods',
    '',
    `Produced by \`node bench/relay-floods.mjs\` (also run by \`npm run bench:floods\`); method in docs/performance.md ("Floods"). ` +
      `bench/flood-server.mjs after the handshake: ${rows.map((r) => r.flood.title).filter((t, i, a) => a.indexOf(t) === i).join('; then ')}; through a bare Node relay piping all three streams and through mcp-tap with a log; the host counts every line. ` +
      `${cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}; load average before → after: ${loadBefore} → ${loadavg().map((x) => x.toFixed(2)).join(' ')}; wall time ${wall.toFixed(0)} s.`,
    '',
    `Flood delivered to the host, mcp-tap vs bare: ${pace.join('; ')}.`,
    '',
    '| flood | relay | flood at the host | every line arrived | log: kept + stated lost = written | relay CPU | RSS at ¼ → ½ → ¾ → end | peak RSS |',
    '|---|---|---:|---|---|---:|---|---:|',
    ...rows.map(
      (r) =>
        `| ${r.flood.title} | ${r.relay} | ${fmt(r.seconds, ' s', 2)} | ${complete(r) ? 'yes' : '**no**'} | ${r.kept ? `${logged(r) ? 'yes' : '**no**'} (${(r.flood.key === 'stderr' ? r.kept.stderr : r.kept.notifications).toLocaleString('en-US')} kept, ${r.kept.lost.toLocaleString('en-US')} in ${r.kept.gaps} gap records)` : '—'} | ${fmt(r.cpu, ' s', 2)} | ${r.curve.map((m) => fmt(m)).join(' → ')} MB | ${fmt(r.hwmMb, ' MB')} |`,
    ),
    '<!-- relay-floods:end -->',
    '',
  ].join('\n');
  writeSection(OUT, 'relay-floods', section);
  console.log(section);
}

/** [bare, mcp-tap] per flood. */
function floodsPairs(rows) {
  const keys = [...new Set(rows.map((r) => r.flood.key))];
  return keys.map((k) => [rows.find((r) => r.flood.key === k && r.relay === 'bare'), rows.find((r) => r.flood.key === k && r.relay === 'mcp-tap')]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  relayFloods().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
