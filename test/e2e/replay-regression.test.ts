/**
 * Issue 11's done-when: `mcp-tap replay bug.log -- node server.js` exits 1 against a server with a planted
 * regression and 0 against the fixed one. The log is recorded here (the official SDK client through the
 * built CLI, with a small --max-log-bytes so one request and one answer are shortened), and the same
 * is checked on the bug report shipped as a fixture. Also: server→client requests answered under the
 * live server's ids, --seq/--only, shortened records reported honestly, the replay's own log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, ROOT, fixture, tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';
import { runTap } from '../helpers/run-tap.js';

const SERVER = fixture('replay-calc.mjs');
const SHIPPED = join(ROOT, 'test', 'fixtures', 'logs', 'replay-calc-bug.jsonl');

const env = (extra: Record<string, string> = {}): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_TAP_LOG') e[k] = v;
  return { ...e, ...extra };
};

/** Records a session against the fixed server through mcp-tap. */
async function record(log: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--quiet', '--log', log, '--max-log-bytes', '2048', '--', process.execPath, SERVER],
    env: env(),
    stderr: 'pipe',
    cwd: ROOT,
  });
  const client = new Client({ name: 'bug-reporter', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'CANNED' } }));
  await client.connect(transport);
  try {
    await client.listTools();
    await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    await client.callTool({ name: 'now', arguments: {} });
    await client.callTool({ name: 'ask', arguments: { question: 'q?' } });
    await client.callTool({ name: 'big', arguments: { size: 5000 } });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 1, note: 'n'.repeat(3000) } });
    await client.callTool({ name: 'count', arguments: { n: 3 } }, undefined, { onprogress: () => {} });
  } finally {
    await client.close();
  }
}

async function replay(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runTap(['replay', ...args], { env: { ...env(), ...extraEnv } });
  run.child.stdin.end();
  const { code } = await run.exited(30_000);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr() };
}

interface JsonEntry {
  type: string;
  status: string;
  failed: boolean;
  seq?: number;
  method?: string;
  target?: string;
  id?: unknown;
  liveId?: unknown;
  differences?: Array<{ path: string; op: string; recorded?: unknown; replayed?: unknown }>;
  ignored?: number;
  partial?: boolean;
  notes: string[];
}

describe('mcp-tap replay against a fixture server with a planted regression', () => {
  let tmp: { dir: string; cleanup: () => void };
  let bugLog: string;

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-replay-');
    bugLog = join(tmp.dir, 'bug.log');
    await record(bugLog);
  }, 30_000);
  afterAll(() => tmp?.cleanup());

  it('exits 1 against the regression, naming the path, and 0 against the fixed server (fresh and shipped bug logs)', async () => {
    const runs = await Promise.all(
      [bugLog, SHIPPED].flatMap((log) => [
        replay([log, '--no-log', '--no-color', '--', process.execPath, SERVER, '--regression']),
        replay([log, '--no-log', '--no-color', '--', process.execPath, SERVER]),
      ]),
    );
    for (const [i, r] of runs.entries()) {
      if (i % 2 === 0) {
        expect(r.code, r.stdout + r.stderr).toBe(1);
        expect(r.stdout).toMatch(/✗ #9 tools\/call add/);
        expect(r.stdout).toContain('result.content[0].text: "2 + 3 = 5" → "2 + 3 = 6"');
        expect(r.stdout).toContain('result.structuredContent.sum: 5 → 6');
        expect(r.stdout).toContain('differences found: exit 1');
      } else {
        expect(r.code, r.stdout + r.stderr).toBe(0);
        expect(r.stdout).toContain('0 different, 0 missing');
        expect(r.stdout).toContain('no differences: exit 0');
      }
    }
  }, 60_000);

  it('reports in JSON: remapped server ids, volatile fields left out, shortened records said so', async () => {
    const r = await replay([bugLog, '--json', '--no-log', '--', process.execPath, SERVER, '--regression']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { failed: boolean; entries: JsonEntry[]; summary: Record<string, number> };
    expect(report.failed).toBe(true);
    expect(report.summary).toMatchObject({ same: 7, different: 1, missing: 0, notReplayed: 1 });

    const add = report.entries.find((e) => e.seq === 9)!;
    expect(add.differences).toEqual([
      { path: 'result.content[0].text', op: 'changed', recorded: '2 + 3 = 5', replayed: '2 + 3 = 6' },
      { path: 'result.structuredContent.sum', op: 'changed', recorded: 5, replayed: 6 },
    ]);

    // the server asked for sampling under its own, per-run id; the replay answered under that id
    const sampling = report.entries.find((e) => e.type === 'server-request')!;
    expect(sampling).toMatchObject({ status: 'same', method: 'sampling/createMessage' });
    expect(String(sampling.id)).toMatch(/^srv-/);
    expect(String(sampling.liveId)).toMatch(/^srv-/);
    expect(sampling.liveId).not.toEqual(sampling.id);
    expect(report.entries.find((e) => e.target === 'ask')!.status).toBe('same');

    // `now` differs in its timestamp text, _meta and startedAt: all left out as volatile
    expect(report.entries.find((e) => e.target === 'now')).toMatchObject({ status: 'same', ignored: 3 });

    // the shortened request is not sent; the shortened answer is compared as far as the log shows
    const padded = report.entries.find((e) => e.status === 'not-replayed')!;
    expect(padded).toMatchObject({ target: 'add', failed: false });
    expect(padded.notes[0]).toMatch(/shortened copy of this request \(\d+ bytes on the wire\).*--max-log-bytes 4096/);
    const big = report.entries.find((e) => e.target === 'big')!;
    expect(big).toMatchObject({ status: 'same', partial: true });
    expect(big.notes[0]).toContain('--max-log-bytes 5120');
  }, 30_000);

  it('--seq replays one call after the handshake; --only every call of a tool', async () => {
    const [seq, only] = await Promise.all([
      replay([bugLog, '--seq', '9', '--json', '--no-log', '--', process.execPath, SERVER, '--regression']),
      replay([bugLog, '--only', 'ask', '--json', '--no-log', '--', process.execPath, SERVER, '--regression']),
    ]);
    expect(seq.code).toBe(1);
    const s = JSON.parse(seq.stdout) as { mode: string; entries: JsonEntry[] };
    expect(s.mode).toBe('selected');
    expect(s.entries.map((e) => [e.method, e.target, e.status].filter(Boolean).join(' '))).toEqual(['initialize same', 'tools/call add different']);
    expect(only.code).toBe(0);
    const o = JSON.parse(only.stdout) as { entries: JsonEntry[] };
    expect(o.entries.map((e) => `${e.type} ${e.method} ${e.status}`)).toEqual(['answer initialize same', 'answer tools/call same', 'server-request sampling/createMessage same']);
  }, 30_000);

  it('logs the replay through mcp-tap, by default in the log directory as replay-<name>', async () => {
    const state = join(tmp.dir, 'state');
    const r = await replay([bugLog, '--', process.execPath, SERVER], { XDG_STATE_HOME: state });
    expect(r.code).toBe(0);
    const log = join(state, 'mcp-tap', 'replay-replay-calc.jsonrpc.log');
    expect(existsSync(log)).toBe(true);
    const recs = readRecords(log);
    expect(recs.filter((x) => x.from === 'client' && x.kind === 'request').map((x) => x['target'] ?? x['method'])).toEqual([
      'initialize',
      'tools/list',
      'add',
      'now',
      'ask',
      'big',
      'count',
    ]);
    expect(recs.some((x) => x.from === 'client' && x.kind === 'response' && x['method'] === 'sampling/createMessage')).toBe(true);
    const session = recs[0]!.session;
    expect(r.stdout).toContain(`this replay is logged in ${log} (session ${session})`);
  }, 30_000);

  it('refuses bad command lines with one clear line and exit 2', async () => {
    const [noCommand, badIgnore, badSession, both] = await Promise.all([
      replay([bugLog]),
      replay([bugLog, '--ignore', 'result[', '--', 'node', SERVER]),
      replay([bugLog, '--session', 'nope', '--', 'node', SERVER]),
      replay([bugLog, '--seq', '9', '--only', 'add', '--', 'node', SERVER]),
    ]);
    expect(noCommand).toMatchObject({ code: 2, stdout: '' });
    expect(noCommand.stderr).toContain('missing the server command after --');
    expect(badIgnore.code).toBe(2);
    expect(badIgnore.stderr).toContain("'[' at position 6 is not closed");
    expect(badSession.code).toBe(2);
    expect(badSession.stderr).toMatch(/no session nope in .*bug\.log/);
    expect(both.code).toBe(2);
    for (const r of [noCommand, badIgnore, badSession, both]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
