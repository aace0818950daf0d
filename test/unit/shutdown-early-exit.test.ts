/**
 * The server starts before the relay's code is loaded, so a server that exits at once can have exited,
 * and even closed its pipes, before the relay's shutdown bookkeeping exists: its exit is recorded from the
 * spawn on and taken over, so mcp-tap ends with the server's own status (under load it waited for a
 * SIGKILL that could not come, then exited 1).
 */
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Shutdown } from '../../src/proxy/shutdown.js';
import { spawnServer } from '../../src/proxy/spawn-server.js';
import { fixture } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

function hooks() {
  const seen: { exit?: [number | null, string | null]; done?: { code: number | null; signal: string | null; forced: boolean }; kills: string[] } = { kills: [] };
  return {
    seen,
    hooks: {
      graceMs: 50,
      warn: () => {},
      onKill: (signal: NodeJS.Signals) => seen.kills.push(signal),
      onExit: (code: number | null, signal: NodeJS.Signals | null) => (seen.exit = [code, signal]),
      onDone: (r: { code: number | null; signal: NodeJS.Signals | null; forced: boolean }) => (seen.done = r),
    },
  };
}

describe('shutdown of a server that ended before the relay was wired', () => {
  it('exited and closed already: its status is taken over, nothing is killed', async () => {
    const child = new EventEmitter() as unknown as ChildProcess;
    const h = hooks();
    new Shutdown(child, h.hooks, { exit: { code: 7, signal: null }, closed: true });
    await waitFor(() => h.seen.done, 2000, 'the end');
    expect(h.seen.exit).toEqual([7, null]);
    expect(h.seen.done).toEqual({ code: 7, signal: null, forced: false });
    expect(h.seen.kills).toEqual([]);
  });

  it('exited already, its pipes close later: the exit is taken over, the close still ends it', async () => {
    const child = new EventEmitter() as unknown as ChildProcess;
    const h = hooks();
    new Shutdown(child, h.hooks, { exit: { code: null, signal: 'SIGSEGV' }, closed: false });
    await waitFor(() => h.seen.exit, 2000, 'the exit');
    expect(h.seen.done).toBeUndefined();
    (child as unknown as EventEmitter).emit('close');
    expect(h.seen.done).toEqual({ code: null, signal: 'SIGSEGV', forced: false });
  });

  it('a real server that exits at once, wired only after it is gone: the spawn recorded its exit and close', async () => {
    const { child, end } = await spawnServer(process.execPath, [fixture('exit-with.mjs'), '--code', '7']);
    await waitFor(() => end.exit !== null, 5000, 'the exit to be recorded');
    const h = hooks();
    new Shutdown(child, h.hooks, end);
    // the pipes close once they are read (the relay's pumps do that)
    child.stdout.resume();
    child.stderr.resume();
    await waitFor(() => h.seen.done, 5000, 'the end');
    expect(h.seen.done).toEqual({ code: 7, signal: null, forced: false });
  });
});
