/**
 * The watch behind `notifications/resources/list_changed` (issue 32 §2): a session that appears — in a
 * log already there or in a new log — is announced once; more lines of known sessions are not; nor is
 * anything written to a file a symbolic link in the directory points at.
 */
import { appendFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchSessions } from '../../src/mcp/session-watch.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const rec = (session: string, seq: number) => `${JSON.stringify({ v: 1, time: 1_767_000_000_000 + seq, session, seq, from: 'server', kind: 'stderr', raw: `line ${seq}` })}\n`;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function start(served: { dir: string } | { file: string }, known: string[]) {
  const ac = new AbortController();
  const events: string[][] = [];
  cleanups.push(() => ac.abort());
  await watchSessions({ served, known: async () => known, onNewSessions: (ids) => events.push(ids), signal: ac.signal, pollMs: 20, debounceMs: 10 });
  return { events, ac };
}

describe('session watch', () => {
  it('announces a new session in a log already there, once, and not more lines of known ones', async () => {
    const box = tempDir('mcp-tap-watch-');
    cleanups.push(box.cleanup);
    const path = join(box.dir, 'a.jsonrpc.log');
    writeFileSync(path, rec('old-1', 1) + rec('old-1', 2));
    const w = await start({ dir: box.dir }, ['old-1']);
    appendFileSync(path, rec('old-1', 3));
    appendFileSync(path, rec('new-2', 1) + rec('new-2', 2));
    await waitFor(() => w.events.length === 1, 5000, 'the announcement');
    appendFileSync(path, rec('new-2', 3) + rec('old-1', 4));
    // a later session is announced too: the lines between were looked at, and found known
    appendFileSync(path, rec('new-3', 1));
    await waitFor(() => w.events.length === 2, 5000, 'the second announcement');
    expect(w.events).toEqual([['new-2'], ['new-3']]);
  });

  it('announces a session of a log created later', async () => {
    const box = tempDir('mcp-tap-watch-');
    cleanups.push(box.cleanup);
    const w = await start({ dir: box.dir }, []);
    writeFileSync(join(box.dir, 'b.jsonrpc.log'), rec('fresh-1', 1) + rec('fresh-1', 2));
    await waitFor(() => w.events.length === 1, 5000, 'the announcement');
    expect(w.events).toEqual([['fresh-1']]);
  });

  it('with --log, watches that log', async () => {
    const box = tempDir('mcp-tap-watch-');
    cleanups.push(box.cleanup);
    const path = join(box.dir, 'one.jsonrpc.log');
    writeFileSync(path, rec('s-1', 1));
    const w = await start({ file: path }, ['s-1']);
    appendFileSync(path, rec('s-2', 1));
    await waitFor(() => w.events.length === 1, 5000, 'the announcement');
    expect(w.events).toEqual([['s-2']]);
  });

  it('does not follow a symbolic link out of the directory', async () => {
    const box = tempDir('mcp-tap-watch-');
    cleanups.push(box.cleanup);
    const outside = tempDir('mcp-tap-watch-out-');
    cleanups.push(outside.cleanup);
    const target = join(outside.dir, 'x.jsonrpc.log');
    writeFileSync(target, rec('out-1', 1));
    symlinkSync(target, join(box.dir, 'link.jsonrpc.log'));
    const path = join(box.dir, 'real.jsonrpc.log');
    writeFileSync(path, rec('in-1', 1));
    const w = await start({ dir: box.dir }, ['in-1']);
    appendFileSync(target, rec('out-2', 1));
    // a session in the real log after the one outside: its announcement shows the watch has looked
    appendFileSync(path, rec('in-2', 1));
    await waitFor(() => w.events.flat().includes('in-2'), 5000, 'the announcement');
    expect(w.events.flat()).toEqual(['in-2']);
  });
});
