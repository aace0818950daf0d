/**
 * The bounds of followFile (tail -f, the live UI): a reader far behind skips ahead to a line start and
 * accounts for every byte and line it did not hand over, a line it held half-read included, and hands
 * over no line glued together across the skip; it skips only when more than maxLagBytes are unread; a
 * line longer than the limit costs no more memory than the limit, however many reads it spans. A `gate`
 * line whose handler waits holds the reader still while the test appends, so what it finds is exact.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followFile, type FollowOptions } from '../../src/log/follow.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-tap-follow-bounds-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `n` lines of exactly `size` bytes with their LF, numbered from `from`. */
function lines(from: number, n: number, size: number): string {
  let out = '';
  for (let i = from; i < from + n; i++) {
    const head = `line ${String(i).padStart(6, '0')} `;
    out += `${head}${'x'.repeat(size - head.length - 1)}\n`;
  }
  return out;
}

/** Follows `path` from its start; what it handed over and what it said it skipped or dropped. */
function start(path: string, opts: Partial<FollowOptions>) {
  const got: string[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => (open = r));
  const skips: Array<{ lines: number; bytes: number }> = [];
  const drops: Array<{ why: string; bytes: number; arrayBuffers: number }> = [];
  let caughtUp = false;
  const ac = new AbortController();
  const done = followFile(
    { path, pollMs: 10, signal: ac.signal, ...opts },
    {
      line: (t) => {
        got.push(t);
        return t === 'gate' ? gate : undefined;
      },
      caughtUp: () => {
        caughtUp = true;
      },
      skipped: (n, bytes) => void skips.push({ lines: n, bytes }),
      dropped: (why, bytes) => void drops.push({ why, bytes, arrayBuffers: process.memoryUsage().arrayBuffers }),
    },
  );
  return {
    got,
    skips,
    drops,
    caughtUp: () => caughtUp,
    /** True once the reader waits on the gate line. */
    atGate: () => got.at(-1) === 'gate',
    open: () => open(),
    stop: async () => {
      ac.abort();
      await done;
    },
  };
}

describe('followFile far behind', () => {
  it('skips to a line start, counting every line and byte it did not hand over, and glues no line across the skip', async () => {
    const path = join(dir, 'far.log');
    const SIZE = 100; // 64 KiB is no multiple of it: the first read ends inside a line
    writeFileSync(path, lines(0, 1, SIZE));
    const f = start(path, { maxLagBytes: 100_000, resumeBytes: 10_000 });
    await waitFor(f.caughtUp, 5000, 'the first line');
    const N = 5000;
    const all = lines(1, N, SIZE);
    // the reader holds the start of line 1 when it finds itself far behind
    appendFileSync(path, `gate\n${all.slice(0, 40)}`);
    await waitFor(f.atGate, 5000, 'the gate');
    appendFileSync(path, all.slice(40));
    f.open();
    await waitFor(() => f.got.at(-1)?.startsWith(`line ${String(N).padStart(6, '0')} `), 5000, 'the last line');
    await f.stop();
    expect(f.skips.length).toBeGreaterThan(0);
    expect(f.got.slice(0, 2)).toEqual([lines(0, 1, SIZE).trimEnd(), 'gate']);
    const rest = f.got.slice(2);
    for (const l of rest) expect(l).toMatch(new RegExp(`^line \\d{6} x{${SIZE - 13}}$`));
    const seen = rest.map((l) => Number(l.slice(5, 11)));
    // handed over in order, none twice; with the skipped ones, every line
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    const skippedLines = f.skips.reduce((a, s) => a + s.lines, 0);
    const skippedBytes = f.skips.reduce((a, s) => a + s.bytes, 0);
    expect(seen.length + skippedLines).toBe(N);
    expect(seen.length * SIZE + skippedBytes).toBe(N * SIZE);
  });

  it('does not skip when exactly maxLagBytes are unread', async () => {
    const path = join(dir, 'edge.log');
    const SIZE = 100;
    writeFileSync(path, lines(0, 1, SIZE));
    const MAX = 200_000;
    const f = start(path, { maxLagBytes: MAX, resumeBytes: 10_000 });
    await waitFor(f.caughtUp, 5000, 'the first line');
    appendFileSync(path, 'gate\n');
    await waitFor(f.atGate, 5000, 'the gate');
    const n = MAX / SIZE;
    appendFileSync(path, lines(1, n, SIZE));
    f.open();
    await waitFor(() => f.got.length === n + 2 || f.skips.length > 0, 5000, 'every line or a skip');
    await f.stop();
    expect(f.skips).toEqual([]);
    expect(f.got).toHaveLength(n + 2);
  });
});

describe('followFile and a line past the limit', () => {
  it('holds no more than the limit of it, however many reads it spans', async () => {
    const path = join(dir, 'long.log');
    const LONG = 40 * 1024 * 1024;
    writeFileSync(path, `a\n${'z'.repeat(LONG)}\nb\n`);
    const before = process.memoryUsage().arrayBuffers;
    const f = start(path, { maxLineBytes: 1024 * 1024 });
    await waitFor(() => f.got.length === 2, 10_000, 'the lines around the long one');
    await f.stop();
    expect(f.got).toEqual(['a', 'b']);
    expect(f.drops.map((d) => [d.why, d.bytes])).toEqual([['too-long', LONG]]);
    // when it is dropped, what the reader holds of it is within a few reads of the 1 MiB limit, not 40 MiB
    expect(f.drops[0]!.arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });
});
