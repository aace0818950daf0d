import { appendFileSync, closeSync, mkdtempSync, openSync, renameSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followFile, type FollowHandlers } from '../../src/log/follow.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-tap-follow-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function waitFor(cond: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts following `path` and records everything the follower reports. */
function start(path: string, extra: { maxLineBytes?: number; watch?: boolean } = {}) {
  const events: string[] = [];
  const lines: string[] = [];
  let caughtUp = false;
  let rounds = 0;
  const ac = new AbortController();
  const handlers: FollowHandlers = {
    line: (t) => {
      lines.push(t);
      events.push(`line:${t}`);
    },
    caughtUp: () => {
      caughtUp = true;
      events.push('caught-up');
    },
    reset: (why) => events.push(`reset:${why}`),
    dropped: (why, bytes) => events.push(`dropped:${why}:${bytes}`),
    idle: () => rounds++,
  };
  const done = followFile({ path, pollMs: 20, signal: ac.signal, ...extra }, handlers);
  return { events, lines, done, stop: () => ac.abort(), isCaughtUp: () => caughtUp, rounds: () => rounds };
}

describe('followFile', () => {
  it('reads what is there, then lines as they are appended; waits for a half-written line', async () => {
    const p = join(dir, 'a.log');
    writeFileSync(p, 'one\ntwo\nthr');
    const f = start(p);
    await waitFor(f.isCaughtUp, 'catch-up');
    expect(f.lines).toEqual(['one', 'two']);
    expect(f.events.indexOf('caught-up')).toBe(2);
    appendFileSync(p, 'ee\nfour');
    await waitFor(() => f.lines.length === 3, 'line three');
    expect(f.lines[2]).toBe('three');
    appendFileSync(p, '\n');
    await waitFor(() => f.lines.length === 4, 'line four');
    expect(f.lines).toEqual(['one', 'two', 'three', 'four']);
    f.stop();
    await f.done;
  });

  it('keeps multibyte characters split across reads whole', async () => {
    const p = join(dir, 'u.log');
    const text = 'é€😀'.repeat(30_000); // > one 64 KiB read
    writeFileSync(p, `${text}\nnext\n`);
    const f = start(p);
    await waitFor(() => f.lines.length === 2, 'two lines');
    expect(f.lines[0]).toBe(text);
    f.stop();
    await f.done;
  });

  it('starts over when the file is truncated', async () => {
    const p = join(dir, 't.log');
    writeFileSync(p, 'a\nb\nhalf');
    const f = start(p);
    await waitFor(() => f.lines.length === 2, 'first lines');
    truncateSync(p, 0);
    await waitFor(() => f.events.includes('reset:truncated'), 'truncation');
    appendFileSync(p, 'c\n');
    await waitFor(() => f.lines.length === 3, 'line after truncation');
    expect(f.lines).toEqual(['a', 'b', 'c']);
    expect(f.events).toContain('dropped:torn:4');
    f.stop();
    await f.done;
  });

  it('drains the old file, then reads the new one from its start, when the path is replaced (rotation)', async () => {
    const p = join(dir, 'r.log');
    writeFileSync(p, 'old-1\n');
    const f = start(p, { watch: false });
    await waitFor(() => f.lines.length === 1, 'old-1');
    // rotate like the log writer does: rename, keep writing through the old handle a moment, then a new file
    const fd = openSync(p, 'a');
    renameSync(p, `${p}.1`);
    writeSync(fd, 'old-2\n');
    closeSync(fd);
    writeFileSync(p, 'new-1\nnew-2\n');
    await waitFor(() => f.lines.length === 4, 'new lines');
    expect(f.lines).toEqual(['old-1', 'old-2', 'new-1', 'new-2']);
    expect(f.events.indexOf('reset:replaced')).toBeGreaterThan(f.events.indexOf('line:old-2'));
    expect(f.events.indexOf('reset:replaced')).toBeLessThan(f.events.indexOf('line:new-1'));
    appendFileSync(p, 'new-3\n');
    await waitFor(() => f.lines.length === 5, 'new-3');
    f.stop();
    await f.done;
  });

  it('reads the files in between when the log was rotated twice between two rounds', async () => {
    const p = join(dir, 'rr.log');
    writeFileSync(p, 'a-1\n');
    const f = start(p, { watch: false });
    await waitFor(() => f.lines.length === 1, 'a-1');
    // like the log writer's rotation (path → path.1 → path.2), twice, with nothing read in between
    appendFileSync(p, 'a-2\n');
    renameSync(p, `${p}.1`);
    writeFileSync(p, 'b-1\nb-2\n');
    renameSync(`${p}.1`, `${p}.2`);
    renameSync(p, `${p}.1`);
    writeFileSync(p, 'c-1\n');
    await waitFor(() => f.lines.length === 5, `all lines; got ${f.lines.join(',')}`);
    expect(f.lines).toEqual(['a-1', 'a-2', 'b-1', 'b-2', 'c-1']);
    f.stop();
    await f.done;
  });

  it('keeps going while the path is missing and picks up the file that reappears', async () => {
    const p = join(dir, 'm.log');
    writeFileSync(p, 'x\n');
    const f = start(p);
    await waitFor(() => f.lines.length === 1, 'x');
    rmSync(p);
    // a missing path is not an error: the follower goes on polling
    const seen = f.rounds();
    await waitFor(() => f.rounds() >= seen + 3, 'rounds while the file is missing');
    writeFileSync(p, 'y\n');
    await waitFor(() => f.lines.length === 2, 'y');
    expect(f.lines).toEqual(['x', 'y']);
    f.stop();
    await f.done;
  });

  it('skips a line longer than the limit and reports it, keeping the following lines', async () => {
    const p = join(dir, 'l.log');
    writeFileSync(p, `short\n${'z'.repeat(200_000)}\nafter\n`);
    const f = start(p, { maxLineBytes: 1000 });
    await waitFor(() => f.lines.length === 2, 'lines around the long one');
    expect(f.lines).toEqual(['short', 'after']);
    expect(f.events).toContain('dropped:too-long:200000');
    f.stop();
    await f.done;
  });

  it('once: reads to the end and stops, leaving a torn last line unreported', async () => {
    const p = join(dir, 'o.log');
    writeFileSync(p, 'a\nb\ntorn');
    const lines: string[] = [];
    await followFile({ path: p, once: true }, { line: (t) => lines.push(t) });
    expect(lines).toEqual(['a', 'b']);
  });

  it('rejects when the file cannot be opened', async () => {
    await expect(followFile({ path: join(dir, 'nope.log'), once: true }, { line: () => {} })).rejects.toThrow(/ENOENT/);
  });
});
