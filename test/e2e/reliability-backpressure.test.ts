/**
 * Issue 8, items 2 and 3: 100 MB through mcp-tap toward a reader that is not reading. mcp-tap must stop
 * reading its source (backpressure) instead of buffering: its resident memory (VmRSS of the mcp-tap
 * process, from /proc) stays under a bound while blocked and over the whole run (VmHWM), and once the
 * reader starts, every byte arrives, in order (sha256 of both ends), and the log has a record per line.
 * "Blocked" is a condition, not a sleep: mcp-tap's read counter (/proc/<pid>/io rchar) stops moving.
 * Linux only (/proc).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { readPid, waitDead, waitFor } from '../helpers/wait.js';

const TOTAL = 100 * 1024 * 1024;
/** mcp-tap's resident memory bound, MB (idle it is ~45 MB; buffering 100 MB would blow it). */
const RSS_BOUND_MB = 150;
/** What mcp-tap may take in before it stops reading: pipe buffers and stream high-water marks, far below 100 MB. */
const IN_FLIGHT_BOUND = 16 * 1024 * 1024;

const onLinux = process.platform === 'linux';

const box = tapSandbox('mcp-tap-rel-bp-', ['server.pid']);
let pidFile: string;
beforeEach(() => {
  pidFile = join(box.dir, 'server.pid');
});

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak so far); 0 when the process is gone. */
function memMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Bytes the process has read through read(2) and friends, from /proc/<pid>/io. */
function rchar(pid: number): number {
  const m = /rchar: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return Number(m?.[1] ?? -1);
}

/** Waits until the process reads nothing for `quietPolls` consecutive polls: it is blocked on backpressure. */
async function waitBlocked(pid: number, timeoutMs = 20_000, quietPolls = 8): Promise<void> {
  let last = -1;
  let quiet = 0;
  await waitFor(
    () => {
      const now = rchar(pid);
      quiet = now === last ? quiet + 1 : 0;
      last = now;
      return quiet >= quietPolls;
    },
    timeoutMs,
    `mcp-tap (pid ${pid}) to stop reading`,
    50,
  );
}

/** Samples the peak RSS of `pid` until stopped; returns the highest VmHWM seen. */
function watchPeak(pid: number): { stop: () => number } {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, memMb(pid, 'VmHWM')));
  const timer = setInterval(sample, 25);
  return {
    stop: () => {
      sample();
      clearInterval(timer);
      return peak;
    },
  };
}

/** Counts the log's line records by direction (streaming: the log is ~100 MB). */
async function countLines(log: string): Promise<{ client: number; server: number; gaps: number }> {
  const out = { client: 0, server: 0, gaps: 0 };
  for await (const line of createInterface({ input: createReadStream(log), crlfDelay: Infinity })) {
    const r = JSON.parse(line) as { from: string; kind: string; event?: string };
    if (r.kind === 'event') {
      if (r.event === 'gap') out.gaps++;
    } else if (r.kind !== 'stderr') out[r.from as 'client' | 'server']++;
  }
  return out;
}

describe.runIf(onLinux)('backpressure (100 MB)', () => {
  it('item 2: the server does not read stdin while the host writes 100 MB → memory stays flat, nothing lost once it reads', async () => {
    const gate = join(box.dir, 'gate');
    const shaFile = join(box.dir, 'server.sha');
    const log = join(box.dir, 'in.jsonrpc.log');
    const r = runTap(['--log', log, '--', process.execPath, fixture('rel-gated-sink.mjs')], {
      env: { REL_GATE: gate, TAP_SHA_FILE: shaFile, TAP_PID_FILE: pidFile },
    });
    box.track(r);
    await r.waitStderr('ready\n');
    const peak = watchPeak(r.pid);

    // the host: JSON-RPC notifications of varying size, written with backpressure
    const hash = createHash('sha256');
    let sent = 0;
    let accepted = 0;
    let lines = 0;
    const writer = (async () => {
      while (sent < TOTAL) {
        const line = Buffer.from(`{"jsonrpc":"2.0","method":"notifications/x","params":{"n":${lines},"d":"${'y'.repeat((lines * 7919) % 3000)}"}}\n`);
        lines++;
        hash.update(line);
        sent += line.length;
        const n = line.length;
        if (!r.child.stdin.write(line, () => (accepted += n))) await new Promise((res) => r.child.stdin.once('drain', res));
      }
      r.child.stdin.end();
    })();

    await waitBlocked(r.pid);
    const blockedRss = memMb(r.pid, 'VmRSS');
    const acceptedWhileBlocked = accepted;
    expect(acceptedWhileBlocked).toBeLessThan(IN_FLIGHT_BOUND);
    expect(blockedRss).toBeGreaterThan(0);
    expect(blockedRss).toBeLessThan(RSS_BOUND_MB);

    writeFileSync(gate, '');
    await writer;
    const { code } = await r.exited(90_000);
    const peakMb = peak.stop();
    expect(code).toBe(0);
    expect(peakMb).toBeLessThan(RSS_BOUND_MB);
    const [serverSha, serverBytes] = readFileSync(shaFile, 'utf8').trim().split(' ');
    expect(Number(serverBytes)).toBe(sent);
    expect(serverSha).toBe(hash.digest('hex'));
    const counted = await countLines(log);
    expect(counted).toEqual({ client: lines, server: 0, gaps: 0 });
    await waitDead(await readPid(pidFile));
    console.log(`item 2: blocked after ${acceptedWhileBlocked} bytes taken in, RSS ${blockedRss.toFixed(1)} MB while blocked, peak ${peakMb.toFixed(1)} MB over ${(sent / 1048576).toFixed(0)} MB`);
  });

  it('item 3: the host does not read stdout while the server writes 100 MB → memory stays flat, nothing lost once it reads', async () => {
    const shaFile = join(box.dir, 'flood.sha');
    const log = join(box.dir, 'out.jsonrpc.log');
    const r = runTap(['--log', log, '--', process.execPath, fixture('rel-flood.mjs')], {
      env: { REL_FLOOD_BYTES: String(TOTAL), REL_SEED: '7', TAP_SHA_FILE: shaFile, TAP_PID_FILE: pidFile },
      collect: false,
    });
    box.track(r);
    await r.waitStderr('ready\n');
    const peak = watchPeak(r.pid);
    // the flood starts when its stdin delivers a byte; we do not read mcp-tap's stdout yet
    await r.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await waitBlocked(r.pid);
    const blockedRss = memMb(r.pid, 'VmRSS');
    // the server is still alive and blocked too: its sha file is not written yet
    expect(existsSync(shaFile)).toBe(false);
    expect(blockedRss).toBeGreaterThan(0);
    expect(blockedRss).toBeLessThan(RSS_BOUND_MB);

    const hash = createHash('sha256');
    let got = 0;
    r.child.stdout.on('data', (c: Buffer) => {
      hash.update(c);
      got += c.length;
    });
    const { code } = await r.exited(90_000);
    const peakMb = peak.stop();
    expect(code).toBe(0);
    expect(peakMb).toBeLessThan(RSS_BOUND_MB);
    const [sha, bytes, lines] = readFileSync(shaFile, 'utf8').trim().split(' ');
    expect(got).toBe(Number(bytes));
    expect(hash.digest('hex')).toBe(sha);
    expect(Number(bytes)).toBeGreaterThanOrEqual(TOTAL);
    const counted = await countLines(log);
    expect(counted).toEqual({ client: 1, server: Number(lines), gaps: 0 });
    console.log(`item 3: RSS ${blockedRss.toFixed(1)} MB while blocked, peak ${peakMb.toFixed(1)} MB over ${(got / 1048576).toFixed(0)} MB`);
  });
});
