/**
 * A FIFO where a file is expected, with no process at the other end: open(2) waits for one for good, in
 * Node's thread pool, where no signal handler reaches it (SIGTERM was ignored: the handlers wait for the
 * stuck open). Readers (logs, baselines, host configs) now say it is not a regular file and exit 2; the
 * proxy, which must not gate the relay on its log (house rule 1), warns and relays without one.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';
import { fixture, ROOT } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-fifo-');
const GOOD_LOG = join(ROOT, 'test', 'fixtures', 'logs', 'stats.jsonl');

function fifo(name: string): string {
  const path = join(box.dir, name);
  execFileSync('mkfifo', [path]);
  return path;
}

/** Runs the CLI with stdin closed; the deadline is the test: before the fix these never ended. */
async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = box.track(runTap(args, { env: { XDG_STATE_HOME: join(box.dir, 'state'), NO_COLOR: '1' } }));
  r.child.stdin.end();
  const { code } = await r.exited(8000);
  return { code, stdout: r.stdout().toString('utf8'), stderr: r.stderr() };
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mcp-tap: /);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at |node:internal|internal error/m);
}

describe.skipIf(process.platform === 'win32')('a FIFO nobody writes to', () => {
  const readers: string[][] = [['tail'], ['tail', '-n', '3'], ['tail', '-f'], ['export'], ['stats'], ['check'], ['baseline', 'save'], ['mock']];
  it.each(readers.map((c) => [c.join(' '), c] as const))('%s <fifo>: not a regular file, exit 2', async (_name, cmd) => {
    const res = await run([...cmd, fifo('log.jsonrpc.log')]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr, /log\.jsonrpc\.log is not a regular file, not a log/);
  });

  it('diff <fifo> <log> and diff <log> <fifo>: exit 2', async () => {
    const f = fifo('base.json');
    for (const args of [['diff', f, GOOD_LOG], ['diff', GOOD_LOG, f]]) {
      const res = await run(args);
      expect(res.code).toBe(2);
      expectOneLine(res.stderr, /base\.json is not a regular file, not a log/);
    }
  });

  it('replay <fifo> -- <server>: exit 2, no server needed', async () => {
    const res = await run(['replay', fifo('r.log'), '--no-log', '--', process.execPath, fixture('cat.mjs')]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr, /r\.log is not a regular file, not a log/);
  });

  it.each([['wrap'], ['unwrap'], ['doctor']])('%s --config <fifo>: exit 2', async (cmd) => {
    const res = await run([cmd, '--config', fifo('mcp.json')]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr, /cannot read .*mcp\.json: it is not a regular file/);
  });

  it('proxy --log <fifo nobody reads>: one warning, the relay runs and ends', async () => {
    const log = fifo('proxy.jsonrpc.log');
    const r = box.track(runTap(['--log', log, '--', process.execPath, fixture('cat.mjs')]));
    const line = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
    await r.write(line);
    r.child.stdin.end();
    const { code } = await r.exited(8000);
    expect(code).toBe(0);
    expect(r.stdout().toString('utf8')).toBe(line);
    expect(tapLines(r.stderr())).toEqual([`mcp-tap: cannot open log ${log} (ENXIO: no process reads this FIFO (or it is a socket or a missing device)); relaying without a log`]);
  });

  it('proxy --log <fifo a process reads>: the records go to it', async () => {
    const log = fifo('read.jsonrpc.log');
    const reader = spawn('cat', [log], { stdio: ['ignore', 'pipe', 'ignore'] });
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (s: string) => (got += s));
    const ended = new Promise((resolve) => reader.once('close', resolve));
    try {
      const res = await run(['--log', log, '--', 'sh', '-c', 'sleep 0.2']);
      expect(res.code).toBe(0);
      expect(tapLines(res.stderr)).toEqual([`mcp-tap: logging to ${log}`]);
      await ended; // cat ends when mcp-tap closes the log
      expect(got).toMatch(/"event":"start"[^]*"event":"end"/);
    } finally {
      reader.kill('SIGKILL');
    }
  });

  it('check --run --log <fifo>: exit 2 before starting anything', async () => {
    const res = await run(['check', '--run', '--log', fifo('c.log'), '--', process.execPath, fixture('cat.mjs')]);
    expect(res.code).toBe(2);
    expectOneLine(res.stderr, /cannot use .*c\.log as the log: it is not a regular file/);
  });
});
