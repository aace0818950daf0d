/**
 * `mcp-tap mock` stands in for server-everything: the official SDK client runs one session against
 * server-everything through the built CLI (recording it), then the same session against
 * `mcp-tap mock <log>`, and sees the same answers — including the server's own sampling and roots
 * requests and progress notifications. A third run puts mcp-tap in front of the mock, as a host's
 * mcpServers entry would, and checks that the mock's stdout carried nothing but JSON-RPC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';
import { CountingTransport } from '../helpers/counting-transport.js';
import { waitFor } from '../helpers/wait.js';

const env = (): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_TAP_LOG') e[k] = v;
  return e;
};

interface Observed {
  server: unknown;
  tools: string[];
  echo: unknown;
  sum: unknown;
  progress: number[];
  /** progress values of the notifications/progress that reached the client, whether or not the SDK delivered them */
  progressOnWire: number[];
  longResult: unknown;
  sampled: unknown;
  image: unknown;
  resources: unknown;
  resource: unknown;
  prompts: unknown;
  prompt: unknown;
  ping: unknown;
  /** A tool the server does not have (a recorded error answer). */
  unknownTool: string;
  /** With `probe`: a tool that was never called in the recording. */
  neverRecorded?: string;
  samplingRequests: number;
  rootsRequests: number;
  stderr: string;
}

async function session(command: string, args: string[], probe = false): Promise<Observed> {
  const stdio = new StdioClientTransport({ command, args, env: env(), stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  stdio.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const transport = new CountingTransport(stdio);
  const client = new Client({ name: 'mock-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, roots: { listChanged: true } } });
  let samplingRequests = 0;
  let rootsRequests = 0;
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    samplingRequests++;
    return { model: 'canned', role: 'assistant', content: { type: 'text', text: 'CANNED-4711' } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    rootsRequests++;
    return { roots: [{ uri: 'file:///tmp/mock-e2e', name: 'root' }] };
  });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'héllo from the mock test' } });
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
    const progress: number[] = [];
    const longResult = await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    const sampled = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say something', maxTokens: 20 } });
    const image = await client.callTool({ name: 'get-tiny-image', arguments: {} });
    const resources = await client.listResources();
    const uri = resources.resources.find((r) => r.uri.endsWith('/features.md'))?.uri ?? resources.resources[0]!.uri;
    const resource = await client.readResource({ uri });
    const prompts = await client.listPrompts();
    const prompt = await client.getPrompt({ name: 'simple-prompt' });
    const ping = await client.ping();
    const outcome = (name: string) =>
      client.callTool({ name, arguments: {} }).then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
    const unknownTool = await outcome('no-such-tool');
    const neverRecorded = probe ? await outcome('never-recorded-tool') : undefined;
    // server-everything asks roots/list once, ~350 ms after initialized: wait for it, so whether it
    // arrives before the client leaves does not depend on how fast the calls above ran
    await waitFor(() => rootsRequests > 0, 10_000, 'the server\'s roots/list request');
    const progressOnWire = transport.received
      .filter((m) => 'method' in m && m.method === 'notifications/progress')
      .map((m) => (m as unknown as { params: { progress: number } }).params.progress);
    return {
      progressOnWire,
      ...(neverRecorded !== undefined ? { neverRecorded } : {}),
      server: client.getServerVersion(),
      tools,
      echo,
      sum,
      progress,
      longResult,
      sampled,
      image,
      resources,
      resource,
      prompts,
      prompt,
      ping,
      unknownTool,
      samplingRequests,
      rootsRequests,
      get stderr() {
        return stderr;
      },
    };
  } finally {
    await client.close();
  }
}

describe('mcp-tap mock stands in for server-everything', () => {
  let tmp: { dir: string; cleanup: () => void };
  let log: string;
  let original: Observed;
  let mocked: Observed;

  beforeAll(async () => {
    tmp = tempDir('mcp-tap-mock-');
    log = join(tmp.dir, 'everything.jsonrpc.log');
    original = await session(process.execPath, [CLI, '--quiet', '--grace', '300', '--log', log, '--', process.execPath, EVERYTHING, 'stdio']);
    mocked = await session(process.execPath, [CLI, 'mock', log], true);
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  it('gives the SDK client the same answers as the original server', () => {
    expect(mocked.server).toEqual(original.server);
    expect(mocked.tools).toEqual(original.tools);
    expect(mocked.tools).toContain('trigger-sampling-request');
    for (const k of ['echo', 'sum', 'longResult', 'sampled', 'image', 'resources', 'resource', 'prompts', 'prompt', 'ping', 'unknownTool'] as const) {
      expect(mocked[k], k).toEqual(original[k]);
    }
    expect(JSON.stringify(mocked.sum)).toContain('42');
    expect(JSON.stringify(mocked.sampled)).toContain('CANNED-4711');
  });

  it("sends the server's own requests and progress, as recorded", () => {
    expect(mocked.samplingRequests).toBe(1);
    expect(original.rootsRequests).toBe(1);
    expect(mocked.rootsRequests).toBe(original.rootsRequests);
    expect(mocked.progressOnWire).toEqual([1, 2, 3]);
    expect(original.progressOnWire).toEqual([1, 2, 3]);
    // what the SDK hands to onprogress depends on how reads split (it drops progress that arrives in the
    // same read as the result, with the real server too): in order, whatever arrived
    mocked.progress.forEach((p, i) => expect(p).toBe(i + 1));
  });

  it('answers what was never recorded with -32601 and explains it on stderr', () => {
    expect(mocked.neverRecorded).toContain('-32601');
    expect(mocked.stderr).toContain('mcp-tap: mock: serving session');
    expect(mocked.stderr).toContain('no recorded answer for tools/call "never-recorded-tool"');
    // a recorded error answer is served like any other
    expect(mocked.unknownTool).toContain('no-such-tool not found');
  });

  it('writes only JSON-RPC on stdout when a host runs it behind mcp-tap', async () => {
    const viaTap = join(tmp.dir, 'mock-through-tap.jsonrpc.log');
    const again = await session(process.execPath, [CLI, '--quiet', '--log', viaTap, '--', process.execPath, CLI, 'mock', log]);
    expect(again.echo).toEqual(original.echo);
    const recs = readRecords(viaTap);
    expect(recs.filter((r) => r.from === 'server' && r.kind === 'invalid')).toEqual([]);
    const end = recs.find((r) => r.kind === 'event' && r.event === 'end')!;
    // every client request was answered (a request of the mock's own may be cut off by the client leaving)
    expect((end['pending'] as Array<{ from: string }>).filter((p) => p.from === 'client')).toEqual([]);
    const answered = recs.filter((r) => r.from === 'server' && (r.kind === 'response' || r.kind === 'error')).length;
    expect(answered).toBe(recs.filter((r) => r.from === 'client' && r.kind === 'request').length);
  }, 30_000);
});
