/**
 * `mcp-tap mcp` as a real child process (the built CLI) driven by the official SDK client over stdio
 * (issue 32): on a directory where mcp-tap recorded a server that leaks a bearer token and an API key, it
 * lists the sessions, finds the failed call by its text, shows that message without the token, runs
 * check, announces a session recorded meanwhile (resources/list_changed), and no tool answer or resource
 * holds either credential. `mcp-tap check --run -- mcp-tap mcp` passes; proxy mode does not log
 * mcp-tap's own server into the directory it serves; a host that closes stdin gets its answers first.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, fixture, ROOT, tempDir } from '../helpers/paths.js';
import { syntheticSession } from '../helpers/synthetic-session.js';
import { waitFor } from '../helpers/wait.js';

const run = promisify(execFile);
const BEARER = 'e2eBearerTok3n0123456789abcdefXYZ';
const KEY = 'sk-proj-e2eApiKey0123456789abcdefghijkl';
const box = tempDir('mcp-tap-mcp-e2e-');
const logs = join(box.dir, 'logs');
const state = join(box.dir, 'state');
const env: Record<string, string> = { ...(process.env as Record<string, string>), XDG_STATE_HOME: state, HOME: join(box.dir, 'home') };
delete env.MCP_TAP_LOG;
/** The recorded server's environment: the credentials it leaks (the reader's has none, so only the built-in rules can catch them). */
const serverEnv = { ...env, LEAKY_FIRST: BEARER, LEAKY_SECOND: KEY };

/** One session of the leaky server through mcp-tap's proxy into `log`, driven by the SDK client. */
async function record(log: string): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, '-q', '--log', log, '--', process.execPath, fixture('leaky-server.mjs')], env: serverEnv, cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'recording-host', version: '1.0.0' });
  await client.connect(transport);
  await client.callTool({ name: 'configure', arguments: { apiKey: KEY } });
  await client.callTool({ name: 'fetch_report', arguments: { url: 'https://reports.example.test/q3' } });
  await client.callTool({ name: 'whoami', arguments: {} });
  await client.close();
}

let client: Client;
let serverStderr = '';
let listChanged = 0;
const answers: string[] = [];
async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  answers.push(JSON.stringify(r));
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  mkdirSync(logs, { recursive: true });
  copyFileSync(join(ROOT, 'test', 'fixtures', 'logs', 'everything.jsonl'), join(logs, 'everything.jsonrpc.log'));
  await record(join(logs, 'leaky.jsonrpc.log'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--dir', logs], env, cwd: ROOT, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => (serverStderr += d.toString()));
  client = new Client({ name: 'mcp-tap-e2e-agent', version: '1.0.0' });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    listChanged++;
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  box.cleanup();
});

describe('mcp-tap mcp over stdio with the SDK client', () => {
  let session = '';

  it('lists the recorded sessions; every tool is read-only with an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(t.outputSchema, t.name).toBeDefined();
    }
    const list = (await call('list_sessions')) as { sessions: Array<{ id: string; server: string; log: string }> };
    expect(list.sessions.map((s) => s.server)).toEqual(['leaky-server', 'everything', 'everything']);
    session = list.sessions[0]!.id;
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-tap' });
  });

  it('finds the failed call by its text and shows it without the token', async () => {
    const found = (await call('search_messages', { text: 'upstream refused' })) as { matches: Array<Record<string, unknown>> };
    expect(found.matches).toHaveLength(1);
    const hit = found.matches[0]!;
    expect(hit).toMatchObject({ session, log: 'leaky.jsonrpc.log', kind: 'response', method: 'tools/call', target: 'fetch_report', isError: true });
    const msg = (await call('get_message', { session, seq: hit['seq'] })) as { message: { body: unknown }; request: { body: unknown } };
    const text = JSON.stringify(msg.message.body);
    expect(text).toContain('upstream refused https://reports.example.test/q3: 401 Unauthorized');
    expect(text).toContain('[REDACTED:');
    expect(JSON.stringify(msg.request.body)).toContain('"name":"fetch_report"');
  });

  it('runs check on the session: the isError result, and the security lens on the credentials', async () => {
    const report = (await call('check_session', { session, failOn: ['is-error'] })) as { passed: boolean; failed: string[]; problems: Array<{ ruleId: string; message: string }> };
    expect(report.passed).toBe(false);
    expect(report.failed).toEqual(['is-error']);
    expect(new Set(report.problems.map((p) => p.ruleId))).toEqual(new Set(['tool-is-error', 'credential-in-arguments', 'credential-in-result']));
  });

  it('announces a session recorded while it runs', async () => {
    const before = listChanged;
    await record(join(logs, 'leaky.jsonrpc.log'));
    await waitFor(() => listChanged > before, 10_000, 'notifications/resources/list_changed');
    const { resources } = await client.listResources();
    answers.push(JSON.stringify(resources));
    expect(resources.filter((r) => r.name.startsWith('leaky-server '))).toHaveLength(2);
  });

  it('no answer of any tool or resource holds the token or the key', async () => {
    // the log holds both as the server sent them: what keeps them out of the answers is the reader
    const logged = readFileSync(join(logs, 'leaky.jsonrpc.log'), 'utf8');
    expect(logged.includes(BEARER) && logged.includes(KEY)).toBe(true);
    const all = (await call('search_messages', { session, limit: 200 })) as { matches: Array<{ seq: number }> };
    for (const m of all.matches) await call('get_message', { session, seq: m.seq });
    await call('get_session', { session });
    await call('session_stats', { session });
    await call('diff_sessions', { a: session, b: 's1-aaaa' });
    for (const text of [BEARER, KEY]) expect(await call('search_messages', { text })).toMatchObject({ matches: [] });
    const { resources } = await client.listResources();
    for (const r of resources) answers.push(JSON.stringify(await client.readResource({ uri: r.uri })));
    const seen = answers.join('\n');
    // caught by the built-in rules: the Authorization header, the apiKey argument, the key's shape in a text
    for (const marker of ['[REDACTED:key:authorization]', '[REDACTED:key:apikey]', '[REDACTED:openai-key]']) expect(seen.includes(marker), marker).toBe(true);
    expect(seen.includes(BEARER), 'the bearer token').toBe(false);
    expect(seen.includes(KEY), 'the API key').toBe(false);
    expect(serverStderr.includes(BEARER) || serverStderr.includes(KEY)).toBe(false);
  });
});

describe('mcp-tap mcp as a server of its own', () => {
  it('passes check --run: schema, spec, the security lens on its definitions and answers, the token budgets', async () => {
    // beside the leaky session, one busy enough that a page of it fills an answer
    const busy = syntheticSession(1500, 3);
    writeFileSync(join(logs, 'busy.jsonrpc.log'), busy.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const session = (await call('list_sessions', { server: 'leaky' })).sessions as Array<{ id: string }>;
    const leaky = session[0]!.id;
    const calls = [
      `list_sessions={}`,
      `search_messages={"session":"synthetic-3","limit":200}`,
      `search_messages={"text":"upstream refused"}`,
      `get_message={"session":"${leaky}","seq":10}`,
      `get_message={"session":"${leaky}","seq":12}`,
      `get_session={"session":"${leaky}"}`,
      `session_stats={"session":"synthetic-3"}`,
      `check_session={"session":"${leaky}"}`,
      `diff_sessions={"a":"${leaky}","b":"synthetic-3"}`,
    ].flatMap((c) => ['--call', c]);
    const before = readdirSync(logs).sort();
    // exit 1 when the check fails: its report says why
    const { stdout } = await run(
      process.execPath,
      [CLI, 'check', '--run', '--format', 'json', '--fail-on', 'all', '--max-context-tokens', '2500', '--max-result-tokens', '25000', ...calls, '--', process.execPath, CLI, 'mcp', '--dir', logs],
      { env, cwd: ROOT, timeout: 60_000 },
    ).catch((err: { stdout: string }) => err);
    const report = JSON.parse(stdout) as { passed: boolean; problems: unknown[]; requests: Array<{ method: string; status: string }>; summary: Record<string, unknown> };
    expect(report.problems).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.summary).toMatchObject({ tools: 7, findings: 0, security: 0, specViolations: 0, schemaProblems: 0, isError: 0 });
    expect(report.requests.filter((r) => r.method === 'tools/call').map((r) => r.status)).toEqual(Array(9).fill('ok'));
    expect(readdirSync(logs).sort()).toEqual(before);
  }, 90_000);

  it('proxy mode does not log it into the directory it serves, unless asked', async () => {
    const dir = join(state, 'mcp-tap');
    const drive = async (proxyArgs: string[]) => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, ...proxyArgs, '--', process.execPath, CLI, 'mcp'], env, cwd: ROOT, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const c = new Client({ name: 'wrapped-host', version: '1.0.0' });
      await c.connect(transport);
      expect((await c.listTools()).tools).toHaveLength(7);
      await c.close();
      return stderr;
    };
    const stderr = await drive([]);
    expect(stderr).toContain("the server is mcp-tap's own MCP server, which reads this log directory: not logging its session there");
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonrpc.log')) : []).toEqual([]);
    await drive(['--log', join(dir, 'asked.jsonrpc.log')]);
    await waitFor(() => existsSync(join(dir, 'asked.jsonrpc.log')), 5000, 'the log asked for');
  }, 60_000);

  it('answers what it was asked before stdin closed, then exits', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--dir', logs], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } };
    child.stdin.end([init, { jsonrpc: '2.0', method: 'notifications/initialized' }, list].map((m) => JSON.stringify(m)).join('\n') + '\n');
    expect(await exited).toBe(0);
    const replies = out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { structuredContent?: { sessions: unknown[] } } });
    expect(replies.map((r) => r.id)).toEqual([1, 2]);
    expect(replies[1]!.result.structuredContent!.sessions.length).toBeGreaterThanOrEqual(3);
  }, 30_000);
});
