/**
 * `mcp-tap ls` on a directory with several logs: two written by real mcp-tap runs (one server exits
 * with 3), two hand-written fixture logs with three sessions, a rotated copy and a file that is not a log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, fixture, tempDir } from '../helpers/paths.js';

let dir: string;
let cleanup: () => void;
let logDir: string;

function run(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '', MCP_TAP_LOG: '', XDG_STATE_HOME: join(dir, 'state'), ...env },
    encoding: 'utf8',
    input: input ?? '',
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  ({ dir, cleanup } = tempDir('mcp-tap-ls-'));
  logDir = join(dir, 'state', 'mcp-tap');
  mkdirSync(logDir, { recursive: true, mode: 0o700 });
  copyFileSync(join(ROOT, 'test/fixtures/logs/everything.jsonl'), join(logDir, 'everything.jsonrpc.log'));
  copyFileSync(join(ROOT, 'test/fixtures/logs/future.jsonl'), join(logDir, 'future.jsonrpc.log'));
  copyFileSync(join(ROOT, 'test/fixtures/logs/everything.jsonl'), join(logDir, 'everything.jsonrpc.log.1'));
  writeFileSync(join(logDir, 'junk.jsonrpc.log'), 'this is not a log\n');
  // two real runs into the default directory, named by --name
  // stdin is closed at once: the grace is long enough for the server to exit on its own however slowly it starts
  const crash = run(['--name', 'crashy', '--grace', '30000', '--', process.execPath, fixture('exit-with.mjs'), '--code', '3']);
  expect(crash.code).toBe(3);
  const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ls', version: '1' } } });
  const hostile = run(['--name', 'hostile', '--', process.execPath, fixture('escape-server.mjs')], {}, `${init}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'nope' })}\n`);
  expect(hostile.code, hostile.err).toBe(0);
});
afterAll(() => cleanup?.());

describe('mcp-tap ls', () => {
  it('lists every session of every log, newest first, with counts, exit status and path', () => {
    const r = run(['ls']);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER +SESSION +STARTED +DURATION +MSGS +ERRORS +FINDINGS +EXIT +PATH$/);
    const rows = lines.slice(1);
    // two real runs (now), then the fixtures' sessions by start time
    expect(rows.map((l) => l.split(/ +/)[0])).toEqual(['hostile', 'crashy', 'future', 'everything', 'everything']);
    expect(rows[1]).toMatch(/ 3 +\S*crashy\.jsonrpc\.log$/);
    expect(rows[3]).toMatch(/^everything +s2-bbbb .* SIGKILL +\S*everything\.jsonrpc\.log$/);
    expect(rows[4]).toMatch(/^everything +s1-aaaa .* 19 +2 +3 +0 +\S*everything\.jsonrpc\.log$/);
    // the hostile server's error answer is counted; its control characters never reach the output
    expect(rows[0]).toMatch(/hostile +\S+ +\S+ \S+ +\S+ +\d+ +[1-9]\d* /);
    expect(r.out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    // rotated copies are not listed; a file that is not a log is skipped with one warning
    expect(r.out).not.toContain('.log.1');
    expect(r.err).toMatch(/junk\.jsonrpc\.log is not an mcp-tap log/);
    // one warning, then the directory that was read (it differs per OS), on stderr
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/junk/), `5 sessions in ${logDir}`]);
  });

  it('--json: the same sessions as data', () => {
    const r = run(['ls', '--json']);
    expect(r.code, r.err).toBe(0);
    const sessions = JSON.parse(r.out) as Array<{ id: string; serverName?: string; exitCode?: number | null; signal?: string | null; path: string; messages: number }>;
    expect(sessions.map((s) => s.serverName)).toEqual(['hostile', 'crashy', 'future', 'everything', 'everything']);
    expect(sessions[1]!.exitCode).toBe(3);
    expect(sessions[3]!.signal).toBe('SIGKILL');
    expect(sessions[4]!.messages).toBe(19);
  });

  it('--dir lists another directory; an empty or missing one says so', () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    copyFileSync(join(ROOT, 'test/fixtures/logs/future.jsonl'), join(other, 'f.jsonrpc.log'));
    const r = run(['ls', '--dir', other]);
    expect(r.out.trimEnd().split('\n')).toHaveLength(2);
    expect(r.out).toContain('future');
    const none = run(['ls', '--dir', join(dir, 'nowhere')]);
    expect(none.code, none.err).toBe(0);
    expect(none.out).toMatch(/^no logs in .*nowhere\n$/);
    expect(run(['ls', '--dir', join(dir, 'nowhere'), '--json']).out).toBe('[]\n');
  });
});
