/**
 * The log file deleted while mcp-tap runs: the sink opens the path anew as soon as it notices, and the
 * next loss report says so (a `file-removed` gap, before any record that follows) — also when records
 * were only queued, not being written, at that moment. Deferring the reopen to the next write left a
 * session whose last records all waited for one write ending in the deleted file, with no word of it.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { FileSink } from '../../src/log/file-sink.js';
import { tempDir } from '../helpers/paths.js';

const rec = (seq: number): string => `${JSON.stringify({ v: 1, seq })}\n`;
/** Real file I/O completes on its own; only timers are fake. */
const io = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('file sink: the log deleted while running', () => {
  it('noticed while a record waits for its write: reopened at once, file-removed reported before the next record', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { dir, cleanup } = tempDir('mcp-tap-removed-');
    onTestFinished(cleanup);
    const path = join(dir, 'jsonrpc.log');
    const warnings: string[] = [];
    const sink = new FileSink({ path, checkIntervalMs: 1000, warn: (m) => warnings.push(m) });
    expect(sink.open()).toBe(true);
    sink.write(rec(1));
    vi.advanceTimersByTime(5); // the coalesced write starts
    for (let i = 0; i < 1000 && readFileSync(path, 'utf8') !== rec(1); i++) await io();
    expect(readFileSync(path, 'utf8')).toBe(rec(1));
    for (let i = 0; i < 20; i++) await io(); // the write's callback has run
    vi.advanceTimersByTime(993); // t = 998: nothing due
    unlinkSync(path);
    sink.write(rec(2)); // waits for a write due at t = 1003; none in flight
    vi.advanceTimersByTime(2); // t = 1000: the path check notices the deletion
    expect(warnings).toEqual([expect.stringMatching(/was removed or replaced while running; reopening it/)]);
    // the record written to the deleted file is counted at once
    expect(sink.takeLoss()).toEqual({ lost: 1, reason: 'file-removed' });
    vi.advanceTimersByTime(5);
    for (let i = 0; i < 1000 && readFileSync(path, 'utf8') === ''; i++) await io();
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe(rec(2));
  });

  it('removed after the last path check, as the session ends: settle() notices it, so its loss is reported before the end record', async () => {
    const { dir, cleanup } = tempDir('mcp-tap-removed-');
    onTestFinished(cleanup);
    const path = join(dir, 'jsonrpc.log');
    const warnings: string[] = [];
    // no periodic check at all: only settle() can notice
    const sink = new FileSink({ path, checkIntervalMs: 0, warn: (m) => warnings.push(m) });
    expect(sink.open()).toBe(true);
    sink.write(rec(1));
    for (let i = 0; i < 1000 && readFileSync(path, 'utf8') !== rec(1); i++) await new Promise((r) => setTimeout(r, 2));
    unlinkSync(path);
    sink.write(rec(2)); // goes to the removed file: lost to anyone reading the path
    for (let i = 0; i < 1000 && sink.queued().records > 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(sink.takeLoss()).toBeNull();
    await sink.settle(1000);
    expect(warnings).toEqual([expect.stringMatching(/was removed or replaced while running; reopening it/)]);
    const loss = sink.takeLoss();
    expect(loss?.reason).toBe('file-removed');
    expect(loss?.lost).toBeGreaterThanOrEqual(1);
    sink.write(rec(3)); // the gap and end records go here, to the path's new file
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe(rec(3));
  });

  it('settles, without waiting, when the write that held a reopen back failed (the sink is broken, the reopen still pending)', async () => {
    const { dir, cleanup } = tempDir('mcp-tap-removed-');
    onTestFinished(cleanup);
    const sink = new FileSink({ path: join(dir, 'jsonrpc.log'), checkIntervalMs: 0, warn: () => {} });
    expect(sink.open()).toBe(true);
    // the state such a write leaves: its error broke the sink before the reopen it held back could run
    Object.assign(sink, { pendingReopen: true, broken: true });
    const started = Date.now();
    await sink.settle(1000);
    expect(Date.now() - started).toBeLessThan(500);
    await sink.close();
  });
});
