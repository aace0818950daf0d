/**
 * One escaping rule for every output path: a hostile server's control sequences (C0, C1, DEL, bidi
 * overrides, line separators) never reach a pipe or a file raw, from any reader — text outputs show them
 * as visible escapes, JSON and markup outputs as \u escapes (JSON outputs still parse). Each command
 * writes to a pipe (not a terminal), and once to a file with -o.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, fixture, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const run = promisify(execFile);
/** Anything a terminal could obey, newline aside. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
let dir: string;
let cleanup: () => void;
let log: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-pipe-escape-'));
  log = join(dir, 'escape.jsonrpc.log');
  const tap = runTap(['--log', log, '--', process.execPath, fixture('escape-server.mjs'), 'arg\x1b]0;pwned\x07\u009b\u2028']);
  try {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host\u009b2J\u202e', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: '\x1b[2J\u2028', method: 'tools/call', params: { name: 'tool\x1b]0;pwned\x07\u0085', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'fail', arguments: {} } },
    ];
    for (const l of lines) await tap.write(JSON.stringify(l) + '\n');
    await waitFor(() => tap.stdout().toString().split('\n').filter((l) => l.includes('"id"')).length >= 4, 10_000, 'the answers');
    tap.child.stdin.end();
    expect((await tap.exited()).code, tap.stderr()).toBe(0);
  } finally {
    tap.kill();
  }
}, 30_000);
afterAll(() => cleanup?.());

async function out(args: string[]): Promise<string> {
  try {
    return (await run(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' }, timeout: 20_000, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    if (e.stdout) return e.stdout; // check exits 1 on the findings of this session
    throw err;
  }
}

const COMMANDS: Array<[string, string[], 'text' | 'json' | 'markup']> = [
  ['tail', ['tail'], 'text'],
  ['tail --json', ['tail', '--json'], 'text'],
  ['stats', ['stats'], 'text'],
  ['stats --json', ['stats', '--json'], 'json'],
  ['export md', ['export'], 'text'],
  ['export md --no-redact', ['export', '--no-redact'], 'text'],
  ['export json', ['export', '--format', 'json', '--no-redact'], 'json'],
  ['export jsonl', ['export', '--format', 'jsonl', '--no-redact'], 'text'],
  ['export html', ['export', '--format', 'html', '--no-redact'], 'markup'],
  ['check', ['check'], 'text'],
  ['check json', ['check', '--format', 'json'], 'json'],
  ['check sarif', ['check', '--format', 'sarif'], 'json'],
  ['check junit', ['check', '--format', 'junit'], 'markup'],
  ['baseline save', ['baseline', 'save'], 'json'],
];

describe.concurrent('every reader escapes hostile text on a pipe', () => {
  for (const [name, args, kind] of COMMANDS) {
    it(name, async () => {
      const text = await out([...args, log]);
      expect(text.length).toBeGreaterThan(0);
      const hit = CONTROL.exec(text);
      expect(hit && JSON.stringify(text.slice(Math.max(0, hit.index - 40), hit.index + 10)), 'a raw control character').toBeNull();
      if (kind === 'json') expect(() => JSON.parse(text)).not.toThrow();
      if (name === 'export jsonl') for (const l of text.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    });
  }

  it('ls, text and --json', async () => {
    for (const args of [['ls', '--dir', dir], ['ls', '--json', '--dir', dir]]) {
      const text = await out(args);
      expect(text).toContain('escape');
      expect(CONTROL.test(text)).toBe(false);
    }
  });

  it('a file written with -o is escaped the same as the pipe', async () => {
    const file = join(dir, 'out.json');
    await out(['export', '--format', 'json', '--no-redact', '-o', file, log]);
    const text = readFileSync(file, 'utf8');
    expect(CONTROL.test(text)).toBe(false);
    expect(text).toBe(await out(['export', '--format', 'json', '--no-redact', log]));
  });
});
