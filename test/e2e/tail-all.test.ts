/**
 * `mcp-tap tail --all`: every log of a directory at once, a server column on each line, records of
 * different logs interleaved by time; with -f, a log created after tail started (a real mcp-tap run of
 * the SDK client against server-everything) shows up too, and filters apply to it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const running: TapRun[] = [];
const dirs: (() => void)[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.kill();
    await r.exited().catch(() => {});
  }
  for (const c of dirs.splice(0)) c();
});

function scratch(): string {
  const t = tempDir('mcp-tap-tailall-');
  dirs.push(t.cleanup);
  return t.dir;
}

/** A small log: start event, then `methods` as requests at the given times (epoch ms). */
function writeLog(path: string, session: string, name: string, at: [number, string][]): void {
  const lines = [{ v: 1, time: at[0]![0] - 1, session, seq: 1, from: 'proxy', kind: 'event', event: 'start', name, command: 'x', args: [] }];
  at.forEach(([time, method], i) => lines.push({ v: 1, time, session, seq: i + 2, from: 'client', kind: 'request', id: i + 1, method, msg: { jsonrpc: '2.0', id: i + 1, method } } as never));
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const plain = { FORCE_COLOR: '0', NO_COLOR: '1' };

describe('tail --all', () => {
  it('interleaves the records of every log by time, each line led by its server', async () => {
    const dir = scratch();
    const t0 = Date.UTC(2026, 0, 1, 12);
    writeLog(join(dir, 'alpha.jsonrpc.log'), 'sa', 'alpha', [[t0 + 10, 'a/one'], [t0 + 30, 'a/two'], [t0 + 50, 'a/three']]);
    writeLog(join(dir, 'beta.jsonrpc.log'), 'sb', 'beta', [[t0 + 20, 'b/one'], [t0 + 40, 'b/two']]);
    const run = runTap(['tail', '--all', '--dir', dir, '-n', '5', '--kind', 'request'], { env: plain });
    running.push(run);
    expect((await run.exited()).code).toBe(0);
    const lines = run.stdout().toString('utf8').trimEnd().split('\n');
    const requests = lines.filter((l) => l.includes('→ req'));
    expect(requests.map((l) => /^(\S+)\s.*\b([ab]\/\w+)/.exec(l)?.slice(1).join(' '))).toEqual(['alpha a/one', 'beta b/one', 'alpha a/two', 'beta b/two', 'alpha a/three']);
    // each session's start separator comes before its first record, under its server
    expect(lines.filter((l) => l.includes('session s')).map((l) => l.split(/\s+/)[0])).toEqual(['alpha', 'beta']);
    expect(lines.findIndex((l) => l.includes('session sb'))).toBeLessThan(lines.findIndex((l) => l.includes('b/one')));
    // -n counts records over all logs: the latest three by time, whichever log they are in
    const last3 = runTap(['tail', '--all', '--dir', dir, '-n', '3', '--kind', 'request'], { env: plain });
    running.push(last3);
    expect((await last3.exited()).code).toBe(0);
    const got = last3.stdout().toString('utf8').split('\n').filter((l) => l.includes('→ req'));
    expect(got.map((l) => /\b([ab]\/\w+)/.exec(l)?.[1])).toEqual(['a/two', 'b/two', 'a/three']);
  });

  it('with -f picks up a log created after it started, filters included', async () => {
    const dir = scratch();
    writeLog(join(dir, 'old.jsonrpc.log'), 'so', 'old', [[Date.now() - 1000, 'tools/list']]);
    const tail = runTap(['tail', '-f', '--all', '--dir', dir, '--method', 'tools/*'], { env: plain });
    running.push(tail);
    const text = () => tail.stdout().toString('utf8');
    await waitFor(() => /^old\s.*tools\/list/m.test(text()), 15_000, `the old log's history; got:\n${text()}`);
    // a server started after tail: its own log file appears in the directory
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--log', join(dir, 'late.jsonrpc.log'), '--quiet', '--', process.execPath, EVERYTHING, 'stdio'],
      stderr: 'pipe',
      cwd: ROOT,
    });
    const client = new Client({ name: 'tail-all-e2e', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    try {
      await client.callTool({ name: 'echo', arguments: { message: 'late-marker' } });
      await waitFor(() => /^late\s.*tools\/call.*echo/m.test(text()), 15_000, `the late log's tools/call; got:\n${text()}\nstderr:\n${tail.stderr()}`);
    } finally {
      await client.close();
    }
    // --method tools/* keeps initialize out (the filter applies to the new log too)
    expect(text()).not.toMatch(/^late\s.*initialize/m);
    expect(tail.stderr()).toContain('following late.jsonrpc.log too');
  });
});
