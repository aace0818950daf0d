/**
 * The escape-injection test (issue 4): a server that puts terminal control sequences in its serverInfo,
 * tool names, a tools/call result, an error, a notification, a non-JSON stdout line and its stderr runs
 * through mcp-tap; then `mcp-tap tail` shows the log. No server-controlled control byte may reach tail's
 * stdout: with colour off there is no ESC at all, with colour on every ESC opens one of chalk's SGR
 * sequences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const EVIL_ARG = 'arg\x1b]0;pwned-by-args\x07\r\b';
/** Control characters that must never appear in what tail prints (tail's own newlines aside). */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const SGR = /\x1b\[[0-9;]*m/g;

let dir: string;
let cleanup: () => void;
let log: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-escape-'));
  log = join(dir, 'escape.jsonrpc.log');
  const tap = runTap(['--log', log, '--', process.execPath, fixture('escape-server.mjs'), EVIL_ARG]);
  try {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: '\x1b[2J\x07', method: 'tools/call', params: { name: 'tool\x1b]0;pwned\x07', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fail', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'evil/\x1b[5A\r', params: {} },
    ];
    for (const l of lines) await tap.write(JSON.stringify(l) + '\n');
    // all five answers relayed (plus the notification and the plain line) before the host hangs up
    await waitFor(() => tap.stdout().toString().split('\n').filter((l) => l.includes('"id"')).length >= 5, 10_000, 'the answers');
    tap.child.stdin.end();
    const { code } = await tap.exited();
    expect(code, tap.stderr()).toBe(0);
  } finally {
    tap.kill();
  }
});

afterAll(() => cleanup?.());

async function tail(args: string[], env: Record<string, string>): Promise<string> {
  const run = runTap(['tail', ...args, log], { env: { NO_COLOR: '', ...env } });
  try {
    const { code } = await run.exited(20_000);
    expect(run.stderr()).toBe('');
    expect(code, run.stderr()).toBe(0);
    return run.stdout().toString('utf8');
  } finally {
    run.kill();
  }
}

function expectReadable(out: string): void {
  // the hostile text is there, shown as visible escapes
  expect(out).toContain('pwned');
  expect(out).toContain('\\x1b');
  expect(out).toContain('tools/call');
  expect(out).toContain('stderr');
}

describe('no server-controlled byte reaches the terminal unescaped', () => {
  it('colour off (FORCE_COLOR=0): no ESC, BEL, CR or backspace at all', async () => {
    for (const extra of [[], ['--full'], ['--session', 'all', '-n', '100']]) {
      const out = await tail(extra, { FORCE_COLOR: '0' });
      expectReadable(out);
      expect(out).not.toContain('\x1b');
      for (const line of out.split('\n')) expect(line).not.toMatch(CONTROL);
    }
  });

  it('colour on (FORCE_COLOR=1 and 3): every ESC starts an SGR sequence', async () => {
    for (const [env, extra] of [
      [{ FORCE_COLOR: '1' }, []],
      [{ FORCE_COLOR: '3' }, ['--full']],
    ] as const) {
      const out = await tail([...extra], env);
      expect(out).toMatch(SGR);
      const rest = out.replace(SGR, '');
      expectReadable(rest);
      expect(rest).not.toContain('\x1b');
      for (const line of rest.split('\n')) expect(line).not.toMatch(CONTROL);
    }
  });

  it('--json: one JSON record per line, control characters only as JSON escapes', async () => {
    const out = await tail(['--json', '--no-redact'], { FORCE_COLOR: '1' });
    const lines = out.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) {
      expect(line).not.toMatch(CONTROL);
      expect(() => JSON.parse(line)).not.toThrow();
    }
    // the escaping changed nothing in the values
    expect(out).toContain('\\u001b]0;pwned');
    const records = lines.map((l) => JSON.parse(l) as { args?: string[] });
    expect(records.some((r) => r.args?.includes(EVIL_ARG))).toBe(true);
  });

  it('follow mode escapes too', async () => {
    const run = runTap(['tail', '-f', log], { env: { FORCE_COLOR: '1', NO_COLOR: '' } });
    try {
      await waitFor(() => run.stdout().toString().includes('end of session'), 15_000, 'the end separator in tail -f').catch((err: Error) => {
        throw new Error(`${err.message}; tail's stdout: ${JSON.stringify(run.stdout().toString())}; stderr: ${JSON.stringify(run.stderr())}`);
      });
      const rest = run.stdout().toString('utf8').replace(SGR, '');
      expectReadable(rest);
      for (const line of rest.split('\n')) expect(line).not.toMatch(CONTROL);
    } finally {
      run.kill();
      await run.exited();
    }
  });

  it('a hostile log file name and session id are escaped in warnings and separators', async () => {
    const evilLog = join(dir, 'x\x1b]0;pwned\x07.jsonrpc.log');
    writeFileSync(
      evilLog,
      `${JSON.stringify({ v: 1, time: 1, session: 's\x1b[2J', seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'n\x07', pid: 1 })}\nnot json \x1b[2J\n`,
      { mode: 0o600 },
    );
    const run = runTap(['tail', evilLog], { env: { FORCE_COLOR: '0' } });
    const { code } = await run.exited();
    expect(code, run.stderr()).toBe(0);
    const out = run.stdout().toString('utf8');
    expect(out).toContain('session s\\x1b[2J');
    expect(out).not.toMatch(CONTROL);
    const err = run.stderr();
    expect(err).toContain('not an mcp-tap record');
    expect(err.split('\n').filter((l) => l !== '')).toHaveLength(1); // once, although the file is read twice
    expect(err).not.toMatch(CONTROL);
  });
});
