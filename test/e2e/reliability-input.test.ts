/**
 * Issue 8, items 10 and 11: bad input is refused with one clear line, never a stack trace.
 * 10 — wrong flags, a missing `--`, an unknown subcommand, an empty command: exit 2, one line, no server
 *      started, no log created. A log the reader subcommands may not read: exit 2, one line. (For the
 *      proxy itself a log it cannot write is a warning and the relay goes on — house rule 1; see
 *      reliability-log.test.ts and docs/reliability.md.)
 * 11 — tail/export/stats on a file that is not a log, truncated, binary, endless or enormous: a clear
 *      error, or the records there are with a warning about the rest; never a crash; memory bounded
 *      (peak RSS of the reader, measured by a preload that reports getrusage at exit).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, closeSync, copyFileSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { installForOtherUser } from '../helpers/other-user.js';

/** A real session log to damage: the stats fixture (several sessions, every kind). */
const GOOD_LOG = join(ROOT, 'test', 'fixtures', 'logs', 'stats.jsonl');
const READERS: readonly (readonly string[])[] = [['tail'], ['export'], ['export', '--format', 'jsonl'], ['stats']];
/** it.each rows: the command's name, then its words. */
const READER_ROWS = READERS.map((cmd) => [cmd.join(' '), cmd] as const);
/** Peak resident memory a reader may use on any input (its longest-line cap is 64 MiB). */
const READER_RSS_BOUND = 256 * 1024 * 1024;

let tmp: { dir: string; cleanup: () => void };
const runs: TapRun[] = [];
beforeAll(() => {
  tmp = tempDir('mcp-tap-rel-in-');
});
afterAll(() => {
  for (const r of runs) r.kill();
  tmp.cleanup();
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  lines: string[];
  maxRss: number;
}

let runNo = 0;
/** Runs the built CLI with a preload that reports its peak RSS; `env` adds to the environment. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Result> {
  const rssFile = join(tmp.dir, `rss-${runNo++}`);
  const r = runTap(args, {
    env: {
      XDG_STATE_HOME: join(tmp.dir, 'state'),
      NO_COLOR: '1',
      NODE_OPTIONS: `--import=${pathToFileURL(fixture('rel-maxrss.mjs')).href}`,
      REL_MAXRSS_FILE: rssFile,
      ...env,
    },
  });
  runs.push(r);
  r.child.stdin.end();
  const { code } = await r.exited(timeoutMs);
  const stderr = r.stderr();
  return {
    code,
    stdout: r.stdout().toString('utf8'),
    stderr,
    lines: stderr.split('\n').filter((l) => l !== ''),
    maxRss: existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : NaN,
  };
}

/** One line on stderr, prefixed, no stack trace, no Node error banner, no raw control characters. */
function expectOneCleanLine(res: Result, pattern: RegExp): void {
  expect(res.lines, res.stderr).toHaveLength(1);
  expect(res.lines[0]).toMatch(/^mcp-tap: /);
  expect(res.lines[0]).toMatch(pattern);
  expect(res.stderr).not.toMatch(/^\s+at .+[:(]\d+/m);
  expect(res.stderr).not.toMatch(/Error \[ERR_|Uncaught|node:internal|TypeError|RangeError/);
  expect(res.stderr.replace(/\n/g, '')).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
}

describe('item 10: bad command lines are one line and exit 2', () => {
  it.each([
    [['--bogus', '--', 'node', 'x.js'], /unknown option --bogus/],
    [['--grace', 'soon', '--', 'node', 'x.js'], /--grace takes a whole number/],
    [['--max-log-size', '-5', '--', 'node', 'x.js'], /unknown option -5|--max-log-size (takes|needs)/],
    [['--max-log-bytes', '10', '--', 'node', 'x.js'], /--max-log-bytes takes a whole number ≥ 1024/],
    [['--name', '../../etc/passwd', '--', 'node', 'x.js'], /--name must be/],
    [['--log'], /--log needs a value/],
    [['--'], /missing the server command/],
    [['--quiet'], /missing the server command/],
    [['--', ''], /the server command is empty/],
    [['--', '   '], /the server command is empty/],
    // a missing `--` in front of a command that does not exist, or a mistyped subcommand
    [['mcp-tap-no-such-server', '--port', '1'], /"mcp-tap-no-such-server" is neither a subcommand nor a command on PATH; a server command goes after --/],
    [['tial', 'x.log'], /"tial" is neither a subcommand nor a command on PATH \(did you mean tail\?\)/],
    [['exprot'], /did you mean export\?/],
    [['--log', 'x.log', 'stast'], /did you mean stats\?/],
  ])('mcp-tap %j', async (args, message) => {
    const pidFile = join(tmp.dir, `never-${runNo}.pid`);
    const res = await cli(args, { TAP_PID_FILE: pidFile });
    expect(res.code).toBe(2);
    expectOneCleanLine(res, message);
    expect(res.stdout).toBe('');
    expect(existsSync(pidFile)).toBe(false); // no server started
    expect(existsSync(join(tmp.dir, 'state', 'mcp-tap'))).toBe(false); // no log created
  });

  it.each([
    [['tail', '--bogus'], /unknown option '--bogus'/],
    [['export', '--format', 'pdf', GOOD_LOG], /--format must be one of/],
    [['stats', '--session'], /argument missing|--session/],
    [['tail', '-n', 'many', GOOD_LOG], /-n|--lines|count/],
    [['export', GOOD_LOG, 'extra'], /too many arguments|unexpected/],
    // an empty prefix matched every session: the one of a one-session log silently, else "prefix  is ambiguous"
    [['tail', '--session', '', GOOD_LOG], /^mcp-tap: --session is empty: give last, or a session id or its prefix/],
    [['stats', '--session', '', GOOD_LOG], /^mcp-tap: --session is empty/],
    [['check', '--session', '', GOOD_LOG], /^mcp-tap: --session is empty/],
  ])('mcp-tap %j', async (args, message) => {
    const res = await cli(args);
    expect(res.code).toBe(2);
    expectOneCleanLine(res, message);
    expect(res.stdout).toBe('');
  });

  it.runIf(process.platform !== 'win32')('a log the reader may not read (mode 0600, another user): one line, exit 2, for tail, export and stats', async () => {
    chmodSync(tmp.dir, 0o755);
    const secret = join(tmp.dir, 'private.jsonrpc.log');
    copyFileSync(GOOD_LOG, secret);
    chmodSync(secret, 0o600);
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(secret, 0o000);
    // nobody may not be able to enter the checkout: run a world-readable copy of the CLI
    const inst = asRoot ? installForOtherUser() : { root: ROOT, cli: CLI, cleanup: () => {} };
    onTestFinished(inst.cleanup);
    for (const args of READERS) {
      const child = spawn(process.execPath, [inst.cli, ...args, secret], { cwd: inst.root, stdio: ['ignore', 'pipe', 'pipe'], ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(2);
      expectOneCleanLine({ code, stdout, stderr, lines: stderr.split('\n').filter((l) => l !== ''), maxRss: 0 }, /cannot read .*private\.jsonrpc\.log \(EACCES: permission denied\)/);
      expect(stdout).toBe('');
    }
  });
});

describe('item 11: damaged, foreign and enormous files', () => {
  let text: string;
  let json: string;
  let binary: string;
  let cutEnd: string;
  let cutMiddle: string;
  let sparse: string;
  let hugeLine: string;
  let manyLines: string;
  let goodRecords: number;

  beforeAll(() => {
    const good = readFileSync(GOOD_LOG);
    goodRecords = good.toString('utf8').split('\n').filter((l) => l !== '').length;
    text = join(tmp.dir, 'notes.txt');
    writeFileSync(text, 'meeting notes\nnothing to see here\n'.repeat(50));
    json = join(tmp.dir, 'package.json');
    writeFileSync(json, readFileSync(join(ROOT, 'package.json')));
    binary = join(tmp.dir, 'random.bin');
    // random bytes with ESC, BEL, CR and C1 controls in the first line
    writeFileSync(binary, Buffer.concat([Buffer.from('\x1b]0;pwned\x07\x1b[2J\r\u009b6n', 'utf8'), randomBytes(256 * 1024)]));
    // cut inside the last record: the records before it are intact
    cutEnd = join(tmp.dir, 'cut-end.jsonrpc.log');
    const lastNl = good.lastIndexOf(0x0a, good.length - 2);
    writeFileSync(cutEnd, good.subarray(0, lastNl + 1 + Math.floor((good.length - lastNl) / 2)));
    // a chunk missing from the middle: one line is glued from two halves
    cutMiddle = join(tmp.dir, 'cut-middle.jsonrpc.log');
    const mid = Math.floor(good.length / 2);
    writeFileSync(cutMiddle, Buffer.concat([good.subarray(0, mid), good.subarray(mid + 300)]));
    // 200 MB of nothing (a sparse file: one line of NUL bytes)
    sparse = join(tmp.dir, 'sparse.jsonrpc.log');
    const fd = openSync(sparse, 'w');
    writeSync(fd, Buffer.from([0]), 0, 1, 200 * 1024 * 1024 - 1);
    closeSync(fd);
    // a real log with a 200 MB record in the middle (sparse too), then more records
    hugeLine = join(tmp.dir, 'huge-line.jsonrpc.log');
    const h = openSync(hugeLine, 'w');
    const head = Buffer.from('{"v":1,"time":1,"session":"huge","seq":1,"from":"server","kind":"stderr","bytes":1,"raw":"');
    const tail = Buffer.from('"}\n');
    const holeEnd = good.length + head.length + 200 * 1024 * 1024;
    writeSync(h, good, 0, good.length, 0);
    writeSync(h, head, 0, head.length, good.length);
    writeSync(h, tail, 0, tail.length, holeEnd);
    writeSync(h, good, 0, good.length, holeEnd + tail.length);
    closeSync(h);
    // a real log followed by 20 MB of short lines that are not records
    manyLines = join(tmp.dir, 'many-lines.jsonrpc.log');
    const m = openSync(manyLines, 'w');
    writeSync(m, good);
    const block = Buffer.from('not a record, just a line of text\n'.repeat(30_000));
    for (let i = 0; i < 20; i++) writeSync(m, block);
    closeSync(m);
  });

  const noLog = /is not an mcp-tap log/;

  it.each(READER_ROWS)('%s: a text file, a JSON file that is not a log, random bytes → one line, exit 2', async (_name, cmd) => {
    for (const [file, first] of [
      [text, /first line: meeting notes/],
      [json, /first line: \{/],
      [binary, /first line: \\x1b\]0;pwned\\x07/],
    ] as const) {
      const res = await cli([...cmd, file]);
      expect(res.code, res.stderr).toBe(2);
      expectOneCleanLine(res, noLog);
      expect(res.lines[0]).toMatch(first);
      expect(res.stdout).toBe('');
    }
  });

  it.each(READER_ROWS)('%s: a device that never ends (/dev/zero) or a directory → one line, exit 2', async (_name, cmd) => {
    for (const [file, why] of [
      ['/dev/zero', /not a regular file/],
      [tmp.dir, /is a directory/],
    ] as const) {
      const res = await cli([...cmd, file], {}, 10_000);
      expect(res.code).toBe(2);
      expectOneCleanLine(res, why);
    }
  });

  it.each(READER_ROWS)('%s: a log cut inside its last record → the records before the cut, and a warning about the torn line', async (_name, cmd) => {
    const res = await cli([...cmd, '--session', 'all', cutEnd]);
    expect(res.code).toBe(0);
    expect(res.stdout.length).toBeGreaterThan(0);
    expect(res.lines, res.stderr).toHaveLength(1);
    expect(res.lines[0]).toMatch(/^mcp-tap: .*(incomplete|truncated|torn|cut)/i);
  });

  it.each(READER_ROWS)('%s: a log with a chunk missing in the middle → the other records, one warning naming the damaged line', async (_name, cmd) => {
    const res = await cli([...cmd, '--session', 'all', cutMiddle]);
    expect(res.code).toBe(0);
    expect(res.stdout.length).toBeGreaterThan(0);
    expect(res.lines, res.stderr).toHaveLength(1);
    expect(res.lines[0]).toMatch(/^mcp-tap: .*(line \d+|:\d+:).*not (JSON|an mcp-tap record)/);
  });

  it.each(READER_ROWS)('%s: 200 MB sparse file of one line → not a log, exit 2, memory bounded', async (_name, cmd) => {
    const res = await cli([...cmd, sparse]);
    expect(res.code).toBe(2);
    expectOneCleanLine(res, noLog);
    expect(res.maxRss).toBeLessThan(READER_RSS_BOUND);
  });

  it.each(READER_ROWS)('%s: a 200 MB record in the middle of a log → skipped with a warning, the rest shown, memory bounded', async (_name, cmd) => {
    const res = await cli([...cmd, '--session', 'all', hugeLine]);
    expect(res.code).toBe(0);
    expect(res.lines, res.stderr).toHaveLength(1);
    expect(res.lines[0]).toMatch(/line of 2097\d+ bytes is longer than the \d+-byte limit/);
    expect(res.maxRss).toBeLessThan(READER_RSS_BOUND);
    if (cmd.includes('jsonl')) expect(res.stdout.split('\n').filter((l) => l !== '')).toHaveLength(2 * goodRecords);
  });

  it.each(READER_ROWS)('%s: a log followed by 600,000 lines that are not records → the records, a bounded number of warnings, memory bounded', async (_name, cmd) => {
    const res = await cli([...cmd, '--session', 'all', manyLines]);
    expect(res.code).toBe(0);
    expect(res.lines.length).toBeGreaterThanOrEqual(1);
    expect(res.lines.length).toBeLessThanOrEqual(21);
    expect(res.maxRss).toBeLessThan(READER_RSS_BOUND);
    if (cmd.includes('jsonl')) expect(res.stdout.split('\n').filter((l) => l !== '')).toHaveLength(goodRecords);
  });
});
