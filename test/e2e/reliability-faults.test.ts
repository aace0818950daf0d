/**
 * Issue 8, items 1 and 4, with real processes (the built CLI): a server that crashes mid-response, and a
 * server whose grandchildren keep its stdio pipes open after it exits.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runTap, tapLines, type TapRun, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { isAlive, readPid, waitDead } from '../helpers/wait.js';
import { events, readRecords } from '../helpers/log.js';

const box = tapSandbox('mcp-tap-rel-');

function tap(args: string[], env: NodeJS.ProcessEnv = {}): TapRun {
  const r = runTap(args, { env });
  box.track(r);
  return r;
}

describe('item 1: the server crashes mid-response', () => {
  it('the host gets exactly the bytes written, mcp-tap exits 1, the log has the partial line and the exit', async () => {
    const log = join(box.dir, 'crash.jsonrpc.log');
    const pidFile = join(box.dir, 'server.pid');
    box.pidFiles.push(pidFile);
    const r = tap(['--log', log, '--', process.execPath, fixture('rel-crash.mjs')], { TAP_PID_FILE: pidFile });
    const request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}\n';
    await r.write(request);
    const { code } = await r.exited();
    expect(code).toBe(1);
    const complete = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}\n';
    const torn = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"ty';
    expect(r.stdout().equals(Buffer.from(complete + torn))).toBe(true);
    // the server's stderr is relayed too, and mcp-tap says nothing but where it logs
    expect(r.stderr()).toContain('about to crash\n');
    expect(tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'))).toEqual([]);
    await waitDead(await readPid(pidFile));

    const recs = readRecords(log);
    const server = recs.filter((x) => x.from === 'server' && x.kind !== 'stderr');
    expect(server).toHaveLength(2);
    expect(server[0]).toMatchObject({ kind: 'response', id: 1, method: 'tools/call', target: 'x', bytes: complete.length - 1 });
    expect(server[0]!.partial).toBeUndefined();
    expect(server[1]).toMatchObject({ partial: true, bytes: torn.length });
    expect((server[1]!.notes as Array<{ code: string }>).map((n) => n.code)).toContain('partial-line');
    expect(recs.find((x) => x.kind === 'stderr')).toMatchObject({ raw: 'about to crash' });
    expect(recs.find((x) => x.event === 'exit')).toMatchObject({ code: 1, signal: null });
    expect(recs.at(-1)).toMatchObject({ event: 'end', exitCode: 1, forced: false });
    // the partial line comes before the exit record: nothing the server wrote is recorded after its death
    expect(recs.indexOf(server[1]!)).toBeLessThan(recs.findIndex((x) => x.event === 'exit'));
  });
});

describe('item 4: grandchildren hold the pipes after the server exits', () => {
  it('mcp-tap exits after the grace period, says why on stderr, and the grandchild is stopped', async () => {
    const log = join(box.dir, 'gc.jsonrpc.log');
    const pidFile = join(box.dir, 'server.pid');
    const gcFile = join(box.dir, 'grandchild.pid');
    box.pidFiles.push(pidFile, gcFile);
    const grace = 600;
    const r = tap(['--log', log, '--grace', String(grace), '--', process.execPath, fixture('rel-grandchild.mjs')], { TAP_PID_FILE: pidFile, REL_GRANDCHILD_PID: gcFile });
    const grandchild = await readPid(gcFile);
    const { code } = await r.exited(10_000);
    // the server itself exited 0; its status is what mcp-tap reports
    expect(code).toBe(0);
    expect(r.stdout().toString()).toBe('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"bye"}}\n');
    const why = tapLines(r.stderr()).filter((l) => !l.startsWith('mcp-tap: logging to'));
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/exited but its stdout\/stderr stayed open for 600 ms \(held by a process it started\?\); stopping/);
    expect(r.stderr()).not.toMatch(/^\s+at /m);
    // the holder was in the server's process group and went with it
    await waitDead(grandchild, 5000);
    expect(isAlive(grandchild)).toBe(false);

    const recs = readRecords(log);
    const exit = recs.find((x) => x.event === 'exit')!;
    const end = recs.at(-1)!;
    expect(exit).toMatchObject({ code: 0 });
    expect(end).toMatchObject({ event: 'end', forced: true, exitCode: 0 });
    // it waited the grace period after the exit, not less (and did not hang: exited() has a deadline)
    expect((end.time as number) - (exit.time as number)).toBeGreaterThanOrEqual(grace - 50);
    expect(events(recs)).toEqual(expect.arrayContaining(['start', 'spawn', 'exit', 'end']));
  });

  it('a grandchild that also ignores SIGTERM does not outlive mcp-tap: SIGKILL follows after the grace period', async () => {
    const pidFile = join(box.dir, 'server.pid');
    const gcFile = join(box.dir, 'grandchild.pid');
    box.pidFiles.push(pidFile, gcFile);
    const r = tap(['--no-log', '--grace', '500', '--', process.execPath, fixture('rel-grandchild.mjs')], {
      TAP_PID_FILE: pidFile,
      REL_GRANDCHILD_PID: gcFile,
      REL_GRANDCHILD_STUBBORN: '1',
    });
    const grandchild = await readPid(gcFile);
    expect((await r.exited(10_000)).code).toBe(0);
    expect(r.stderr()).toMatch(/stayed open for 500 ms/);
    // SIGTERM at the grace period, then (from the watchdog, after mcp-tap exited) SIGKILL a grace period later
    await waitDead(grandchild, 5000);
  });
});
