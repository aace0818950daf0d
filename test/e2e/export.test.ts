/**
 * `mcp-tap export` and `mcp-tap stats` through the built CLI: a real SDK session against server-everything
 * recorded by mcp-tap, then exported as Markdown, JSON and JSON Lines and summarised; the planted-secrets
 * fixture leaks nothing in any format; bad input is one line and exit status 2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { PLANTED_ENV, PLANTED_FLAGS, SECRETS_LOG, survivingSecrets } from '../fixtures/planted-secrets.js';

const SECRET_IN_SESSION = 'ghp_E2Eabcdefghijklmnopqrstuvwxyz0123456';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let tmp: ReturnType<typeof tempDir>;
let log: string;

beforeAll(async () => {
  tmp = tempDir('mcp-tap-export-');
  log = join(tmp.dir, 'everything.jsonrpc.log');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--log', log, '--', process.execPath, EVERYTHING, 'stdio'],
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'export-e2e', version: '2.3.4' }, { capabilities: {} });
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { message: `my token is ${SECRET_IN_SESSION}` } });
  await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
  await client.close();
  // the log is complete once mcp-tap wrote the session's end record
  const deadline = Date.now() + 10_000;
  while (!readFileSync(log, 'utf8').includes('"event":"end"')) {
    if (Date.now() > deadline) throw new Error('mcp-tap did not finish the log');
    await new Promise((r) => setTimeout(r, 20));
  }
});

afterAll(() => tmp?.cleanup());

describe('a real session against server-everything', () => {
  it('exports Markdown a maintainer can read: header, summary, conversation, stderr', async () => {
    const r = await cli(['export', log]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).toMatch(/^# MCP session: `server-everything`$/m);
    expect(md).toMatch(/^\| Server command \| `.*node.* .*server-everything\/dist\/index\.js stdio` \|$/m);
    expect(md).toMatch(/^\| Server \| `mcp-servers\/everything [^`]+` \|$/m);
    expect(md).toMatch(/^\| Client \| `export-e2e 2\.3\.4` \|$/m);
    expect(md).toMatch(/^\| Protocol version \| `\d{4}-\d{2}-\d{2}` \|$/m);
    expect(md).toMatch(/^\| Started \| \d{4}-\d{2}-\d{2}T[\d:.]+Z \|$/m);
    expect(md).toMatch(/^\| Duration \| [\d.]+ (ms|s) \|$/m);
    expect(md).toMatch(/^\| Exit \| code 0 \|$/m);
    expect(md).toMatch(/^\| mcp-tap \| `\d+\.\d+\.\d+[^`]*` \|$/m);
    expect(md).toMatch(new RegExp(`^\\| Node\\.js \\| \`${process.versions.node.replace(/\./g, '\\.')}\` \\|$`, 'm'));
    expect(md).toMatch(new RegExp(`^\\| OS \\| \`${process.platform} ${process.arch}\` \\|$`, 'm'));
    expect(md).toMatch(/^\| Requests \| 4 \|$/m);
    expect(md).toMatch(/^\| Unanswered requests \| 0 \|$/m);
    // the token planted in echo's arguments comes back in its result: the security lens notes both, by kind
    expect(md).toMatch(/^\| Findings \| 2 \|$/m);
    expect(md).toContain('- `credential-in-arguments` × 1');
    expect(md).toContain('- `credential-in-result` × 1');
    // what server-everything costs the model before the first message, its tools by cost, and the results
    expect(md).toMatch(/^## Context cost\n\n- before the first message: [\d,]+ tokens — \d+ tool definitions [\d,]+ \(/m);
    expect(md).toMatch(/^ {2}- tools by cost: `[^`]+` [\d,]+/m);
    expect(md).toMatch(/^ {2}- never called: \d+ of \d+ tools/m);
    expect(md).toMatch(/^- tool results: 2, [\d,]+ tokens/m);
    expect(md).toMatch(/\*\*#\d+\*\* client → server request `initialize` · id `0` — result in [\d.]+ m?s/);
    expect(md).toMatch(/client → server request `tools\/list` · id `1` — result in/);
    expect(md).toMatch(/^\d+ tools: `echo`/m);
    expect(md).toMatch(/client → server request `tools\/call` · `echo` · id `2` — result in/);
    expect(md).toMatch(/## Server stderr\n\n\d+ lines?, [^\n]*\n\n```text\n\+[\d.]+ s {2}[^\n]*server/);
    expect(md).toContain('my token is [REDACTED:github-token]');
    expect(md).not.toContain(SECRET_IN_SESSION);
  });

  it('exports JSON Lines and JSON: every record, redacted, to a 0600 file', async () => {
    const logLines = readFileSync(log, 'utf8').trim().split('\n');
    const out = join(tmp.dir, 'out.jsonl');
    const r = await cli(['export', log, '--format', 'jsonl', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    const recs = text.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; kind: string });
    expect(recs.map((x) => x.seq)).toEqual(logLines.map((l) => (JSON.parse(l) as { seq: number }).seq));
    expect(text).not.toContain(SECRET_IN_SESSION);
    // a clean server: nothing else is redacted (schemas, instructions, capabilities stay readable)
    expect([...new Set(text.match(/\[REDACTED:[^\]]*\]/g))]).toEqual(['[REDACTED:github-token]']);
    expect(readdirSync(tmp.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const j = await cli(['export', log, '--format', 'json', '--no-redact']);
    expect(j.code).toBe(0);
    const arr = JSON.parse(j.stdout) as unknown[];
    expect(arr).toHaveLength(logLines.length);
    expect(j.stdout).toContain(SECRET_IN_SESSION);
  });

  it('stats: per method and per tool, as text and as JSON', async () => {
    const t = await cli(['stats', log]);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^tools\/call\s+client\s+2\s+0\s+0\s/m);
    expect(t.stdout).toMatch(/^ {2}echo\s+client\s+1\s/m);
    expect(t.stdout).toContain('unanswered requests: 0');
    const j = await cli(['stats', log, '--json']);
    const st = JSON.parse(j.stdout) as { methods: Array<{ method: string; count: number; latency: { n: number } | null }>; tools: Array<{ tool: string; count: number }> };
    expect(st.methods.find((m) => m.method === 'tools/list')).toMatchObject({ count: 1, latency: { n: 1 } });
    expect(st.tools.map((x) => [x.tool, x.count])).toEqual([
      ['echo', 1],
      ['get-sum', 1],
    ]);
  });

  it('without a file, reads the most recent log of the default directory', async () => {
    const state = join(tmp.dir, 'state');
    mkdirSync(join(state, 'mcp-tap'), { recursive: true });
    copyFileSync(log, join(state, 'mcp-tap', 'server-everything.jsonrpc.log'));
    const r = await cli(['export', '--format', 'jsonl'], { XDG_STATE_HOME: state, MCP_TAP_LOG: '' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(readFileSync(log, 'utf8').trim().split('\n').length);
  });
});

describe('the planted-secrets fixture through the CLI', () => {
  it.each(['md', 'json', 'jsonl'])('no planted secret survives --format %s', async (format) => {
    const r = await cli(['export', SECRETS_LOG, '--format', format, '--max-body', '1000000', ...PLANTED_FLAGS], PLANTED_ENV);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(1000);
    expect(survivingSecrets(r.stdout)).toEqual([]);
  });

  it('--no-redact keeps them, and says so', async () => {
    const out = join(tmp.dir, 'raw.md');
    const r = await cli(['export', SECRETS_LOG, '--no-redact', '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('NOT redacted');
    expect(readFileSync(out, 'utf8')).toContain('PLANTEDkeyedPassword789');
  });
});

describe('bad input: one line, exit status 2', () => {
  it.each<[string, string[], RegExp]>([
    ['missing log', ['export', '/nonexistent/x.jsonrpc.log'], /^mcp-tap: no such log: \/nonexistent\/x\.jsonrpc\.log\n$/],
    ['not a log', ['stats', join(ROOT, 'package.json')], /^mcp-tap: .*package\.json is not an mcp-tap log/],
    ['unknown format', ['export', SECRETS_LOG, '--format', 'pdf'], /^mcp-tap: --format must be one of md, json, jsonl\b[^\n]*, got "pdf"\n$/],
    ['bad pattern', ['export', SECRETS_LOG, '--redact-pattern', '(['], /^mcp-tap: --redact-pattern "\(\[" is not a valid regular expression/],
    ['unknown session', ['export', SECRETS_LOG, '--session', 'nope'], /^mcp-tap: no session nope in .*secrets\.jsonl; sessions there: fixture-secrets\n$/],
    ['contradictory flags', ['export', SECRETS_LOG, '--no-redact', '--redact-key', 'x'], /^mcp-tap: --no-redact cannot be combined/],
  ])('%s', async (_what, args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
