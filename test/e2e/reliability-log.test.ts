/**
 * Issue 8, items 5 and 6: the log file fails in every way a disk can fail while the relay goes on
 * unchanged, with one warning per problem; where the log is writable again, it records how many records
 * were lost, and the accounting is exact: records present + Σ gap.lost = the session's last seq. Then
 * rotation: a long session never holds more than (N + 1) × --max-log-size on disk, and `tail -f`
 * follows across rotations without losing or repeating a record.
 *
 * Tests run as root, which ignores permission bits: a read-only directory is tested by running mcp-tap
 * as `nobody`; a full disk by /dev/full and by a file size limit (ulimit -f, which also makes writes
 * short, as a filling disk does).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, type TapRun, tapSandbox } from '../helpers/run-tap.js';
import { CLI, fixture, FIXTURES, ROOT } from '../helpers/paths.js';
import { installForOtherUser } from '../helpers/other-user.js';
import { waitFor } from '../helpers/wait.js';

const box = tapSandbox('mcp-tap-rel-log-');

const CAT = fixture('cat.mjs');

/** A host talking to `cat.mjs` through mcp-tap: one request at a time, each echo awaited (event-driven). */
class Conversation {
  private sent: Buffer[] = [];
  private sentBytes = 0;
  private received = 0;
  private wake: (() => void) | null = null;
  next = 0;
  constructor(readonly r: TapRun) {
    r.child.stdout.on('data', (c: Buffer) => {
      this.received += c.length;
      this.wake?.();
    });
  }

  /** Sends one request and waits for its echo. */
  async one(): Promise<void> {
    const line = Buffer.from(`{"jsonrpc":"2.0","id":${this.next},"method":"tools/call","params":{"name":"t","arguments":{"n":${this.next}}}}\n`);
    this.next++;
    this.sent.push(line);
    this.sentBytes += line.length;
    await this.r.write(line);
    if (this.received >= this.sentBytes) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no echo of message ${this.next - 1} within 5 s; stderr:\n${this.r.stderr()}`)), 5000);
      this.wake = () => {
        if (this.received < this.sentBytes) return;
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  async some(n: number): Promise<void> {
    for (let i = 0; i < n; i++) await this.one();
  }

  /** Keeps the conversation going until `cond` holds (traffic drives the sink's checks and retries). */
  async until(cond: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stderr:\n${this.r.stderr()}`);
      await this.one();
    }
  }

  /** Ends the session; checks the relay delivered exactly what was sent. */
  async end(): Promise<void> {
    this.r.child.stdin.end();
    const { code } = await this.r.exited(15_000);
    expect(code).toBe(0);
    expect(this.r.stdout().equals(Buffer.concat(this.sent))).toBe(true);
  }
}

/** mcp-tap's own warnings (the startup announcement aside). */
const warnings = (r: TapRun): string[] => tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to '));

type Rec = { seq: number; session: string; kind: string; event?: string; lost?: number; reason?: string; from: string };

/** Records of the given files (lines that are not JSON — a record torn by a failed write — are skipped). */
function recordsOf(files: string[]): Rec[] {
  const out: Rec[] = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        out.push(JSON.parse(line) as Rec);
      } catch {
        // torn
      }
    }
  }
  return out;
}

/** No silent loss: every seq 1..last is present exactly once or counted in a gap record. */
function expectExactAccounting(recs: Rec[]): { present: number; lost: number; last: number } {
  const seqs = recs.map((r) => r.seq);
  expect(new Set(seqs).size).toBe(seqs.length); // no duplicates
  const last = Math.max(...seqs);
  const lost = recs.filter((r) => r.event === 'gap').reduce((n, r) => n + (r.lost ?? 0), 0);
  expect(seqs.length + lost).toBe(last);
  expect(recs.find((r) => r.seq === last)).toMatchObject({ event: 'end' });
  return { present: seqs.length, lost, last };
}

describe('item 5: the log cannot be written', () => {
  it('the log path is a directory: relay unchanged, one warning', async () => {
    const dirLog = join(box.dir, 'a-directory.jsonrpc.log');
    mkdirSync(dirLog);
    const c = new Conversation(runTap(['--log', dirLog, '--', process.execPath, CAT]));
    box.track(c.r);
    await c.some(20);
    await c.end();
    const w = warnings(c.r);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/cannot open log .*a-directory\.jsonrpc\.log \(EISDIR: it is a directory\); relaying without a log/);
  });

  it.runIf(process.platform === 'linux')('the log path is under /proc (cannot be created): relay unchanged, one warning', async () => {
    const c = new Conversation(runTap(['--log', '/proc/self/mcp-tap.jsonrpc.log', '--', process.execPath, CAT]));
    box.track(c.r);
    await c.some(20);
    await c.end();
    const w = warnings(c.r);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/cannot open log \/proc\/self\/mcp-tap\.jsonrpc\.log \(E[A-Z]+: .*\); relaying without a log/);
  });

  it.runIf(process.platform !== 'win32')('a read-only directory (mcp-tap runs as nobody): relay unchanged, one warning', async () => {
    // the temp dir must be traversable by nobody; the log directory inside it is read-only
    chmodSync(box.dir, 0o755);
    const ro = join(box.dir, 'read-only');
    mkdirSync(ro, { mode: 0o555 });
    chmodSync(ro, 0o555);
    const asRoot = process.getuid?.() === 0;
    // nobody may not be able to enter the checkout: run a world-readable copy of the CLI
    const inst = asRoot ? installForOtherUser() : { root: ROOT, cli: CLI, fixtures: FIXTURES, cleanup: () => {} };
    onTestFinished(inst.cleanup);
    const child = spawn(process.execPath, [inst.cli, '--log', join(ro, 'x.jsonrpc.log'), '--', process.execPath, join(inst.fixtures, 'cat.mjs')], {
      cwd: inst.root,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let out = Buffer.alloc(0);
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out = Buffer.concat([out, c])));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const input = Buffer.from(Array.from({ length: 50 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`).join(''));
    child.stdin.end(input);
    expect(await closed).toBe(0);
    expect(out.equals(input)).toBe(true);
    const w = tapLines(err);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/cannot open log .*read-only\/x\.jsonrpc\.log \((EACCES: permission denied|EROFS: .*)\); relaying without a log/);
    expect(existsSync(join(ro, 'x.jsonrpc.log'))).toBe(false);
  });

  it('full disk, then space again (the path swapped to /dev/full and back): one warning each, the loss is counted exactly', async () => {
    const log = join(box.dir, 'full.jsonrpc.log');
    const keep = join(box.dir, 'full.jsonrpc.log.before');
    const c = new Conversation(runTap(['--log', log, '--', process.execPath, CAT]));
    box.track(c.r);
    await c.some(20);
    // keep the first file readable, then make the path a full disk
    linkSync(log, keep);
    symlinkSync('/dev/full', `${log}.tmp`);
    renameSync(`${log}.tmp`, log);
    await c.until(() => /ENOSPC/.test(c.r.stderr()), 'the full-disk warning');
    // traffic for longer than the sink's 1 s retry: it reopens the still-full disk, and the gap record
    // that would report the loss so far is lost too — its count must not be
    const fullAt = Date.now();
    await c.until(() => Date.now() - fullAt > 1300, 'traffic past a retry');
    // space again: the path names a regular file once more (created by the sink's retry)
    unlinkSync(log);
    await c.until(() => /writable again/.test(c.r.stderr()), 'the writable-again notice');
    await c.some(20);
    await c.end();

    const w = warnings(c.r);
    expect(w.filter((l) => /removed or replaced/.test(l)), c.r.stderr()).toHaveLength(1);
    expect(w.filter((l) => /ENOSPC: no space left on device/.test(l))).toHaveLength(1);
    expect(w.filter((l) => /writable again/.test(l))).toHaveLength(1);
    expect(w).toHaveLength(3);
    const after = recordsOf([log]);
    const gaps = after.filter((r) => r.event === 'gap');
    expect(gaps.length).toBeGreaterThanOrEqual(1);
    expect(gaps[0]).toMatchObject({ reason: 'write-failed' });
    const { lost } = expectExactAccounting(recordsOf([keep, log]));
    expect(lost).toBeGreaterThanOrEqual(60); // 30 messages × 2 records at least
  });

  it.runIf(process.platform !== 'win32')('a disk that fills mid-write (file size limit: short writes, then EFBIG), then space again: exact count', async () => {
    const log = join(box.dir, 'limit.jsonrpc.log');
    const full = join(box.dir, 'limit.jsonrpc.log.full');
    // ulimit -f counts 512-byte blocks in sh: 512 KB per file for mcp-tap (and the server, which writes
    // none), room enough in the second file for the rest of the session and its end record
    const sh = runUnderShell(`ulimit -f 1024; exec "${process.execPath}" "${CLI}" --log "${log}" -- "${process.execPath}" "${CAT}"`);
    box.track(sh);
    const c = new Conversation(sh);
    await c.until(() => /EFBIG/.test(c.r.stderr()), 'the file-too-large warning');
    await c.some(30);
    // space again: move the full file aside; the retry creates a new one
    renameSync(log, full);
    await c.until(() => /writable again/.test(c.r.stderr()), 'the writable-again notice');
    await c.some(20);
    await c.end();
    const w = warnings(c.r);
    expect(w.filter((l) => /EFBIG/.test(l)), c.r.stderr()).toHaveLength(1);
    expect(w.filter((l) => /writable again/.test(l)), c.r.stderr()).toHaveLength(1);
    expect(w, c.r.stderr()).toHaveLength(2);
    // filled to the byte: the last write was short, and the record it tore is counted, not kept
    expect(statSync(full).size).toBe(1024 * 512);
    const { lost } = expectExactAccounting(recordsOf([full, log]));
    expect(lost).toBeGreaterThanOrEqual(60);
  });

  it('the log is deleted while running: the sink reopens it, the new file has the later records and a gap counting what went to the deleted file', async () => {
    const log = join(box.dir, 'deleted.jsonrpc.log');
    const c = new Conversation(runTap(['--log', log, '--', process.execPath, CAT]));
    box.track(c.r);
    await c.some(20);
    // wait until the log holds the echo of the last message, then note where the deletion happens
    await waitFor(() => readFileSync(log, 'utf8').includes(`"from":"server","kind":"request","id":19,`), 5000, 'the last echo in the log');
    const fd = openSync(log, 'r'); // keeps the deleted file readable for the accounting
    const atDelete = fstatSync(fd).size;
    unlinkSync(log);
    await c.until(() => /removed or replaced/.test(c.r.stderr()), 'the removal warning');
    await c.some(20);
    await c.end();

    const w = warnings(c.r);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/log .*deleted\.jsonrpc\.log was removed or replaced while running; reopening it/);
    // the deleted file: what went there after the deletion is lost to anyone reading the path
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(size);
    readSync(fd, buf, 0, size, 0);
    closeSync(fd);
    const old = buf.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Rec);
    const lostForReal = buf.subarray(atDelete).toString('utf8').split('\n').filter((l) => l !== '').length;
    const fresh = recordsOf([log]);
    const gap = fresh.find((r) => r.event === 'gap');
    expect(gap).toMatchObject({ reason: 'file-removed' });
    // counted, never silent: the count covers every record written after the deletion (it may include a few
    // written just before it, since the sink cannot tell when the file was removed)
    expect(gap!.lost).toBeGreaterThanOrEqual(lostForReal);
    expect(gap!.lost).toBeLessThanOrEqual(old.length);
    // the later records are in the new file, the session's end among them; old + new cover every seq once
    expect(fresh.at(-1)).toMatchObject({ event: 'end' });
    expect(fresh.filter((r) => r.from === 'client').length).toBeGreaterThanOrEqual(20);
    const all = [...old, ...fresh].map((r) => r.seq).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
  });
});

/** `sh -c script` (mcp-tap under a ulimit) with the parts of runTap's plumbing the Conversation uses. */
function runUnderShell(script: string): TapRun {
  const child = spawn('/bin/sh', ['-c', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdin.on('error', () => {});
  let done = false;
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    }),
  );
  return {
    child,
    pid: child.pid!,
    stdoutChunks: out,
    stdout: () => Buffer.concat(out),
    stderr: () => err,
    exited: async (timeoutMs = 10_000) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([closed, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`did not exit within ${timeoutMs} ms:\n${err}`)), timeoutMs)))]);
      } finally {
        clearTimeout(timer);
      }
    },
    waitStderr: (pattern, timeoutMs = 10_000) => waitFor(() => (typeof pattern === 'string' ? err.includes(pattern) : pattern.test(err)), timeoutMs).then(() => {}),
    write: (data) => new Promise<void>((resolve, reject) => child.stdin.write(data, (e) => (e ? reject(e) : resolve()))),
    kill: () => {
      if (!done) child.kill('SIGKILL');
    },
  };
}

describe('item 6: log rotation', () => {
  it('a long session never holds more than (N + 1) × --max-log-size on disk; the kept files are the newest, in order', async () => {
    const dir = join(box.dir, 'rot');
    mkdirSync(dir);
    const log = join(dir, 'r.jsonrpc.log');
    const max = 1_000_000;
    const keep = 3;
    const r = runTap(['--log', log, '--max-log-size', String(max), '--max-log-files', String(keep), '--', process.execPath, fixture('rel-flood.mjs')], {
      env: { REL_FLOOD_BYTES: String(25 * 1024 * 1024), REL_SEED: '3' },
    });
    box.track(r);
    let worstTotal = 0;
    let worstFile = 0;
    const names = new Set<string>();
    const sample = () => {
      let total = 0;
      for (const name of readdirSync(dir)) {
        names.add(name);
        try {
          const s = statSync(join(dir, name)).size;
          total += s;
          worstFile = Math.max(worstFile, s);
        } catch {
          // rotated away between readdir and stat
        }
      }
      worstTotal = Math.max(worstTotal, total);
    };
    const timer = setInterval(sample, 5);
    await r.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const { code } = await r.exited(60_000);
    clearInterval(timer);
    sample();
    expect(code).toBe(0);
    expect([...names].sort()).toEqual(['r.jsonrpc.log', 'r.jsonrpc.log.1', 'r.jsonrpc.log.2', 'r.jsonrpc.log.3']);
    // every record of the flood is smaller than max, so no file ever passes it
    expect(worstFile).toBeLessThanOrEqual(max);
    expect(worstTotal).toBeLessThanOrEqual((keep + 1) * max);
    // the kept files hold the newest records, oldest file first, consecutive, ending with the session's end
    const files = [`${log}.3`, `${log}.2`, `${log}.1`, log];
    const seqs = files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as Rec).seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
    expect(recordsOf([log]).at(-1)).toMatchObject({ event: 'end' });
    for (const f of files) expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  it('tail -f follows across rotations: every record once, in order', async () => {
    const log = join(box.dir, 'follow.jsonrpc.log');
    // enough rotated files kept that none is deleted: what tail shows can be compared with what was written
    const c = new Conversation(runTap(['--log', log, '--max-log-size', '8000', '--max-log-files', '100', '--', process.execPath, CAT]));
    box.track(c.r);
    // tail -f needs the file to exist when it starts; it then shows the whole history (-n) and follows
    await c.one();
    await waitFor(() => existsSync(log), 5000, 'the log file');
    const tail = runTap(['tail', '-f', '-n', '100000', '--json', '--no-redact', '--session', 'all', log]);
    box.track(tail);
    await waitFor(() => tail.stdout().toString('utf8').includes('"from":"server","kind":"request","id":0,'), 10_000, 'tail to show the history');
    const seen = () => tail.stdout().toString('utf8');
    for (let batch = 0; batch < 10; batch++) {
      await c.some(40);
      // pace by tail: each batch rotates the log about twice; tail must show its last echo
      const id = c.next - 1;
      await waitFor(() => seen().includes(`"from":"server","kind":"request","id":${id},`), 10_000, `tail to show message ${id}`);
    }
    await c.end();
    await waitFor(() => seen().includes('"event":"end"'), 10_000, 'tail to show the end record');
    tail.child.kill('SIGINT');
    await tail.exited(5000);
    // the files on disk, oldest first, hold every record once (the writer side of rotation)
    const rotated = readdirSync(box.dir).filter((n) => /^follow\.jsonrpc\.log\.\d+$/.test(n)).map((n) => Number(n.split('.').pop()));
    expect(rotated.length).toBeGreaterThan(10); // it did rotate, many times
    const files = rotated.sort((a, b) => b - a).map((k) => `${log}.${k}`).concat(log);
    const written = recordsOf(files).map((r) => r.seq);
    expect(written).toEqual(Array.from({ length: written.length }, (_, i) => i + 1));
    // tail showed the same records, once each, in order
    const recs = seen().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Rec);
    const seqs = recs.map((r) => r.seq);
    expect(seqs).toEqual(written);
    expect(recs.at(-1)).toMatchObject({ event: 'end' });
  });
});

