/**
 * Record a session of the official SDK client with server-everything through the built CLI, then replay
 * it against server-everything: every answer the same (nothing beyond the documented volatile fields),
 * the server's own requests (roots/list, sampling/createMessage) answered from the recording, exit 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

const env = (): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_TAP_LOG') e[k] = v;
  return e;
};

async function record(log: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--quiet', '--grace', '300', '--log', log, '--', process.execPath, EVERYTHING, 'stdio'],
    env: env(),
    stderr: 'pipe',
    cwd: ROOT,
  });
  const client = new Client({ name: 'replay-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, roots: { listChanged: true } } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'canned', role: 'assistant', content: { type: 'text', text: 'CANNED' } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp/replay-e2e', name: 'root' }] }));
  await client.connect(transport);
  try {
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: { message: 'héllo\r\n through the tap' } });
    await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: () => {} });
    await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say something', maxTokens: 20 } });
    await client.callTool({ name: 'get-tiny-image', arguments: {} });
    await client.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } });
    const resources = (await client.listResources()).resources;
    await client.readResource({ uri: resources.find((r) => r.uri.endsWith('/features.md'))?.uri ?? resources[0]!.uri });
    await client.listPrompts();
    await client.getPrompt({ name: 'simple-prompt' });
    await client.ping();
  } finally {
    await client.close();
  }
}

interface Entry {
  type: string;
  status: string;
  method?: string;
  target?: string;
  ignored?: number;
  differences?: unknown[];
}

describe('replay against server-everything', () => {
  let tmp: { dir: string; cleanup: () => void };
  let log: string;

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-replay-everything-');
    log = join(tmp.dir, 'everything.jsonrpc.log');
    await record(log);
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  it('finds every answer the same and exits 0', async () => {
    const run = runTap(['replay', log, '--json', '--log', join(tmp.dir, 'replay.jsonrpc.log'), '--', process.execPath, EVERYTHING, 'stdio'], { env: env() });
    run.child.stdin.end();
    const { code } = await run.exited(60_000);
    const out = run.stdout().toString('utf8');
    const report = JSON.parse(out) as { failed: boolean; entries: Entry[]; summary: Record<string, number>; notifications: { replayed: Record<string, number> } };
    const bad = report.entries.filter((e) => e.status !== 'same');
    expect(bad, JSON.stringify(bad, null, 2)).toEqual([]);
    expect(code).toBe(0);
    expect(report.failed).toBe(false);
    const answers = report.entries.filter((e) => e.type === 'answer').map((e) => e.target ?? e.method);
    expect(answers).toEqual([
      'initialize',
      'tools/list',
      'echo',
      'get-sum',
      'trigger-long-running-operation',
      'trigger-sampling-request',
      'get-tiny-image',
      'get-structured-content',
      'resources/list',
      expect.stringMatching(/^demo:\/\//),
      'prompts/list',
      'simple-prompt',
      'ping',
    ]);
    // the server's own requests were answered from the recording and matched it
    const asked = report.entries.filter((e) => e.type === 'server-request').map((e) => e.method);
    expect(asked).toEqual(expect.arrayContaining(['roots/list', 'sampling/createMessage']));
    // the differences left out are the documented volatile ones only: none for server-everything
    expect(report.entries.reduce((n, e) => n + (e.ignored ?? 0), 0)).toBe(0);
    expect(report.notifications.replayed['notifications/progress']).toBe(3);
  }, 60_000);

  it('replays a single call that makes the server ask the client', async () => {
    const run = runTap(['replay', log, '--only', 'trigger-sampling-request', '--no-log', '--no-color', '--', process.execPath, EVERYTHING, 'stdio'], { env: env() });
    run.child.stdin.end();
    const { code } = await run.exited(60_000);
    const out = run.stdout().toString('utf8');
    expect(code, out + run.stderr()).toBe(0);
    expect(out).toMatch(/✓ #\d+ initialize/);
    expect(out).toMatch(/✓ #\d+ tools\/call trigger-sampling-request/);
    expect(out).toMatch(/✓ #\d+ server asked sampling\/createMessage/);
    expect(out).not.toContain('get-sum');
  }, 60_000);
});
