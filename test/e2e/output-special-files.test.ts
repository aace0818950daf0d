/**
 * `-o <file>` (export, stats, check, diff, audit, baseline save) replaces the file atomically: a
 * temporary file renamed over it. Renamed over a symlink, that replaced the link with a regular file (the
 * file it pointed to left stale); over a device or a FIFO, it put a regular file in its place — run as
 * root, `-o /dev/null` replaced /dev/null itself. Now a symlink is written through (its target replaced,
 * the link kept) and a device or FIFO is written in place; a FIFO nobody reads is an error, not a wait.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapSandbox } from '../helpers/run-tap.js';
import { ROOT } from '../helpers/paths.js';

const box = tapSandbox('mcp-tap-out-special-');
const LOG = join(ROOT, 'test', 'fixtures', 'logs', 'stats.jsonl');
const isRoot = process.getuid?.() === 0;

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = box.track(runTap(args, { env: { NO_COLOR: '1' } }));
  r.child.stdin.end();
  const { code } = await r.exited(10_000);
  return { code, stdout: r.stdout().toString('utf8'), stderr: r.stderr() };
}

describe.skipIf(process.platform === 'win32')('-o into what is not a plain file', () => {
  it('a symlink: its target gets the output, the link stays a link', async () => {
    const target = join(box.dir, 'report.md');
    const link = join(box.dir, 'latest.md');
    writeFileSync(target, 'old report\n');
    symlinkSync('report.md', link);
    const res = await run(['export', LOG, '-o', link]);
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('report.md');
    expect(readFileSync(target, 'utf8')).toMatch(/^# /);
  });

  it('a dangling symlink: the file it names is created, the link stays', async () => {
    const link = join(box.dir, 'next.json');
    symlinkSync('made.json', link);
    const res = await run(['stats', '--json', LOG, '-o', link]);
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(box.dir, 'made.json'), 'utf8'))).toBeTypeOf('object');
  });

  it('a FIFO a process reads: the output goes down the pipe, the FIFO stays a FIFO', async () => {
    const fifo = join(box.dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let got = '';
    reader.stdout.setEncoding('utf8').on('data', (s: string) => (got += s));
    const ended = new Promise((resolve) => reader.once('close', resolve));
    try {
      const res = await run(['stats', LOG, '-o', fifo]);
      expect(res.code, res.stderr).toBe(0);
      await ended;
      expect(got).toMatch(/^stats-server: session fixture-stats/);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } finally {
      reader.kill('SIGKILL');
    }
  });

  it('a FIFO nobody reads: exit 2 at once, the FIFO left as it was', async () => {
    const fifo = join(box.dir, 'lonely');
    execFileSync('mkfifo', [fifo]);
    const res = await run(['stats', LOG, '-o', fifo]);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(`mcp-tap: cannot write ${fifo} (ENXIO: no process reads this FIFO (or it is a socket or a missing device))\n`);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it.skipIf(!isRoot)('a character device (a copy of /dev/null): written to, not replaced', async () => {
    const dev = join(box.dir, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    const res = await run(['export', LOG, '-o', dev]);
    expect(res.code, res.stderr).toBe(0);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readFileSync(dev, 'utf8')).toBe('');
  });

  it('-o "": a usage error naming the option', async () => {
    const res = await run(['stats', LOG, '-o', '']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('mcp-tap: -o needs a file name (- for stdout)\n');
  });
});
