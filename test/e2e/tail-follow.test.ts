/**
 * `mcp-tap tail -f` while a real mcp-tap run appends to the log: the official SDK client talks to
 * server-everything through mcp-tap, and tail shows the conversation as it happens. Then the log is
 * truncated and another session written; then it is replaced (rotated) by another file. tail follows
 * through all three.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, EVERYTHING, ROOT, fixture, tempDir } from '../helpers/paths.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
let cleanup: () => void;
const running: TapRun[] = [];

beforeAll(() => {
  ({ dir, cleanup } = tempDir('mcp-tap-tailf-'));
});
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.kill();
    await r.exited().catch(() => {});
  }
});
afterAll(() => cleanup?.());

/** One SDK session against server-everything through mcp-tap, logging to `log`. */
async function sdkSession(log: string, marker: string, tapArgs: string[] = [], calls = 1): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--log', log, '--quiet', ...tapArgs, '--', process.execPath, EVERYTHING, 'stdio'],
    env: { ...(process.env as Record<string, string>) },
    stderr: 'pipe',
    cwd: ROOT,
  });
  const client = new Client({ name: 'tail-e2e', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    await client.listTools();
    for (let i = 0; i < calls; i++) await client.callTool({ name: 'echo', arguments: { message: marker } });
    await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
  } finally {
    await client.close();
  }
}

/** Starts `mcp-tap tail -f <log>` with plain output; the caller waits on its stdout. */
function tailF(log: string, extra: string[] = []): TapRun & { text: () => string } {
  const run = runTap(['tail', '-f', ...extra, log], { env: { FORCE_COLOR: '0', NO_COLOR: '' } });
  running.push(run);
  return Object.assign(run, { text: () => run.stdout().toString('utf8') });
}

/** Waits for `cond`; on timeout the error shows what tail printed so far. */
async function until(tail: { text: () => string; stderr: () => string }, cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  await waitFor(cond, timeoutMs, what).catch((err: Error) => {
    throw new Error(`${err.message}\n--- tail stdout:\n${tail.text()}\n--- tail stderr:\n${tail.stderr()}`);
  });
}

const SEED = JSON.stringify({ v: 1, time: Date.now(), session: 'seed', seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'seed' });

/** A log holding one seed record and a `tail -f` that has shown it: from then on, tail is following. */
async function readyTail(log: string, extra: string[] = []): Promise<ReturnType<typeof tailF>> {
  writeFileSync(log, `${SEED}\n`, { mode: 0o600 });
  const tail = tailF(log, extra);
  await until(tail, () => tail.text().includes('seed'), 10_000, 'tail -f to show the seed record');
  return tail;
}

describe('tail -f', () => {
  it('shows a live SDK session against server-everything, then survives truncation and replacement', async () => {
    const log = join(dir, 'everything.jsonrpc.log');
    const tail = await readyTail(log);
    await sdkSession(log, 'first-marker');
    await until(tail, () => /end of session .*exit 0/.test(tail.text()), 20_000, 'the end of the first session in tail -f');
    const first = tail.text().slice(tail.text().indexOf('session seed') + 1);
    const lines = first.split('\n');
    const find = (re: RegExp) => lines.find((l) => re.test(l));
    expect(find(/^──── .*session .*everything/)).toBeDefined();
    const init = find(/→ req +0 +initialize/);
    const initAnswer = find(/← res +0 +initialize .*ms ↩ #\d+/);
    expect(init).toBeDefined();
    expect(initAnswer).toBeDefined();
    expect(find(/→ notif +notifications\/initialized/)).toBeDefined();
    expect(find(/→ req +1 +tools\/list/)).toBeDefined();
    const echoReq = find(/→ req +\d+ +tools\/call echo/);
    const echoRes = find(/← res +\d+ +tools\/call echo .*ms ↩ #\d+/);
    expect(echoReq).toBeDefined();
    expect(echoRes).toBeDefined();
    // the answer names the seq of its request, and the method column lines up
    const reqSeq = /#(\d+) →/.exec(echoReq!)![1];
    expect(echoRes).toContain(`↩ #${reqSeq}`);
    expect(echoRes!.indexOf('tools/call')).toBe(echoReq!.indexOf('tools/call'));
    expect(find(/tools\/call get-sum/)).toBeDefined();
    expect(first).not.toContain('Echo: first-marker');
    expect(first).not.toContain('\x1b');
    // a clean SDK session: no findings, no errors
    expect(first).not.toContain('⚠');
    expect(first).not.toContain('✗');

    // truncation: the file starts over; tail reads the new content from the start
    truncateSync(log, 0);
    await tail.waitStderr('was truncated', 10_000);
    await sdkSession(log, 'second-marker');
    await until(tail, () => (tail.text().match(/end of session .*exit 0/g) ?? []).length >= 2, 20_000, 'the second session');
    const firstEnd = /end of session .*exit 0/.exec(tail.text())!;
    const second = tail.text().slice(firstEnd.index + firstEnd[0].length);
    expect(second).toMatch(/→ req +0 +initialize/);
    expect(second).toMatch(/tools\/call echo/);

    // replacement (rotation): a new file takes the path; tail drains the old one, then reads the new one
    const next = join(dir, 'next.jsonrpc.log');
    writeFileSync(next, readFileSync(new URL('../fixtures/logs/everything.jsonl', import.meta.url)), { mode: 0o600 });
    renameSync(next, log);
    await tail.waitStderr('was replaced', 10_000);
    await until(tail, () => tail.text().includes('end of session s2-bbbb'), 10_000, 'the sessions of the replacement file');
    const third = tail.text();
    expect(third).toContain('session s1-aaaa');
    expect(third).toContain('✗ error -32002 Resource not found');
    // the replacement's records come after everything of the second session
    const secondEnd = [...third.matchAll(/end of session .*exit 0/g)][1]!.index;
    expect(third.indexOf('session s1-aaaa')).toBeGreaterThan(secondEnd);
    expect(tail.child.exitCode).toBeNull(); // still following
  });

  it('follows mcp-tap\'s own log rotation (--max-log-size) without losing a record', async () => {
    const log = join(dir, 'rotating.jsonrpc.log');
    const tail = await readyTail(log);
    await sdkSession(log, 'rotation-marker', ['--max-log-size', '2500', '--max-log-files', '9'], 12);
    await until(tail, () => /end of session .*exit 0/.test(tail.text()), 20_000, 'the end of the session');
    expect(tail.stderr()).toContain('was replaced');
    const session = tail.text().slice(tail.text().indexOf('server-everything'));
    const seqs = [...session.matchAll(/^\S+ +#(\d+) /gm)].map((m) => Number(m[1]));
    // every record of the session, in order, from the first after the start separator to the last before the end
    expect(seqs[0]).toBe(2);
    expect(seqs).toEqual(seqs.map((_, i) => i + 2));
    expect(session.match(/tools\/call echo/g)!.length).toBe(24);
  });

  it('starts with the last 20 records of the last session, -n and filters apply live too', async () => {
    const log = join(dir, 'history.jsonrpc.log');
    writeFileSync(log, readFileSync(new URL('../fixtures/logs/everything.jsonl', import.meta.url)), { mode: 0o600 });
    const tail = tailF(log, ['-n', '3', '--method', 'tools/*']);
    await until(tail, () => tail.text().split('\n').length >= 4, 10_000, 'history');
    // the last session only: its last three tools/* records, with the session header before them
    const history = tail.text().split('\n').filter((l) => l !== '');
    expect(history[0]).toContain('session s2-bbbb');
    expect(history.slice(1, 3).every((l) => l.includes('tools/list'))).toBe(true);

    await sdkSession(log, 'live-marker');
    // the separators of the new session are shown around its tools/* records
    await until(tail, () => /tools\/call echo[^]*end of session .*exit 0/.test(tail.text()), 20_000, 'live tools/call and the end');
    const live = tail.text();
    expect(live).not.toMatch(/→ req +0 +initialize/); // filtered out
  });

  it('--json --kind request follows new records as JSON lines', async () => {
    const log = join(dir, 'json.jsonrpc.log');
    const tail = await readyTail(log, ['--json', '--kind', 'request,event']);
    await sdkSession(log, 'json-marker');
    await until(tail, () => tail.text().includes('json-marker'), 20_000, 'the echo request as JSON');
    const text = tail.text();
    const recs = text
      .slice(0, text.lastIndexOf('\n'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { kind: string; method: string });
    expect(recs.every((r) => r.kind === 'request' || r.kind === 'event')).toBe(true);
    expect(recs.map((r) => r.method)).toContain('initialize');
  });

  it('a log written by a crashing server: the exit code is in the end separator', async () => {
    const log = join(dir, 'crash.jsonrpc.log');
    const tail = await readyTail(log);
    const tap = runTap(['--log', log, '--quiet', '--', process.execPath, fixture('exit-with.mjs'), '--code', '3']);
    running.push(tap);
    // the host stays connected: the server exits on its own (had the host closed stdin first, a server
    // slower to start than the grace period would be stopped by mcp-tap instead)
    await tap.exited();
    tap.child.stdin.end();
    await until(tail, () => tail.text().includes('end of session'), 10_000, 'the end separator');
    expect(tail.text()).toContain('server exited with code 3');
    expect(tail.text()).toMatch(/end of session .*exit 3/);
  });

  it('waits for a log that does not exist yet (start the viewer before the host starts the server)', async () => {
    const log = join(dir, 'not-yet.jsonrpc.log');
    const tail = tailF(log);
    await until(tail, () => tail.stderr().includes('waiting for'), 10_000, 'the waiting notice');
    await sdkSession(log, 'LATE-ARRIVAL');
    await until(tail, () => tail.text().includes('LATE-ARRIVAL') || tail.text().includes('tools/call echo'), 15_000, 'the session that created the log');
    expect(tail.stderr()).toMatch(/^mcp-tap: waiting for .*not-yet\.jsonrpc\.log to appear$/m);
  });
});
