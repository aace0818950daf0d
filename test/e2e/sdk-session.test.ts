/**
 * The official SDK client talks to server-everything through mcp-tap and directly, and sees the same
 * thing both ways (issue 2, first test): initialize, tools/list, tools/call, progress notifications,
 * a sampling request from the server answered by the client, roots/list, a resource read. Then the log:
 * created 0700/0600 in $XDG_STATE_HOME/mcp-tap under the derived name, with one record per line relayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { CountingTransport } from '../helpers/counting-transport.js';
import { readRecords, type Rec } from '../helpers/log.js';

const CANNED = 'CANNED-SAMPLING-REPLY-4711';

interface Observed {
  serverName: string | undefined;
  protocolVersion: string | undefined;
  tools: string[];
  echo: unknown;
  sum: unknown;
  progress: Array<{ progress: number; total?: number }>;
  longResult: unknown;
  sampling: string;
  samplingRequests: number;
  rootsRequests: number;
  resourceUri: string;
  resource: unknown;
  ping: unknown;
  sent: JSONRPCMessage[];
  received: JSONRPCMessage[];
  stderr: string;
}

/** Runs the same session over a transport spawning `command args`. */
async function session(command: string, args: string[], env: Record<string, string>): Promise<Observed> {
  const stdio = new StdioClientTransport({ command, args, env, stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  stdio.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const transport = new CountingTransport(stdio);
  const client = new Client({ name: 'mcp-tap-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, roots: { listChanged: true } } });
  let samplingRequests = 0;
  let rootsRequests = 0;
  client.setRequestHandler(CreateMessageRequestSchema, async () => {
    samplingRequests++;
    return { model: 'canned-model', role: 'assistant', content: { type: 'text', text: CANNED } };
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    rootsRequests++;
    return { roots: [{ uri: 'file:///tmp/mcp-tap-e2e-root', name: 'e2e root' }] };
  });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'héllo\r\n\u0000 through the tap' } });
    const sum = await client.callTool({ name: 'get-sum', arguments: { a: 19, b: 23 } });
    const progress: Array<{ progress: number; total?: number }> = [];
    const longResult = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push({ progress: p.progress, total: p.total }) },
    );
    const sampled = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say something', maxTokens: 20 } });
    const samplingText = (sampled.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('');
    const resources = (await client.listResources()).resources;
    const uri = resources.find((r) => r.uri.endsWith('/features.md'))?.uri ?? resources[0]!.uri;
    const resource = await client.readResource({ uri });
    const ping = await client.ping();
    return {
      serverName: client.getServerVersion()?.name,
      protocolVersion: (transport.received.find((m) => 'result' in m && m.id === 0) as { result?: { protocolVersion?: string } } | undefined)?.result?.protocolVersion,
      tools,
      echo,
      sum,
      progress,
      longResult,
      sampling: samplingText,
      samplingRequests,
      rootsRequests,
      resourceUri: uri,
      resource,
      ping,
      sent: transport.sent,
      received: transport.received,
      get stderr() {
        return stderr;
      },
    };
  } finally {
    await client.close();
  }
}

const env = (extra: Record<string, string> = {}): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_TAP_LOG') e[k] = v;
  return { ...e, ...extra };
};

describe('SDK client through mcp-tap vs direct', () => {
  let tmp: { dir: string; cleanup: () => void };
  let viaTap: Observed;
  let direct: Observed;

  beforeAll(async () => {
    tmp = tempDir();
    [viaTap, direct] = await Promise.all([
      session(process.execPath, [CLI, '--grace', '300', '--', process.execPath, EVERYTHING, 'stdio'], env({ XDG_STATE_HOME: tmp.dir })),
      session(process.execPath, [EVERYTHING, 'stdio'], env()),
    ]);
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  it('sees the same server, tools and results', () => {
    expect(viaTap.serverName).toBe(direct.serverName);
    expect(viaTap.protocolVersion).toBe(direct.protocolVersion);
    expect(viaTap.tools).toEqual(direct.tools);
    expect(viaTap.tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-sampling-request']));
    expect(viaTap.echo).toEqual(direct.echo);
    expect(JSON.stringify(viaTap.echo)).toContain('Echo: héllo\\r\\n\\u0000 through the tap');
    expect(viaTap.sum).toEqual(direct.sum);
    expect(JSON.stringify(viaTap.sum)).toContain('42');
    expect(viaTap.longResult).toEqual(direct.longResult);
    expect(viaTap.resourceUri).toBe(direct.resourceUri);
    expect(viaTap.resource).toEqual(direct.resource);
    expect(viaTap.ping).toEqual(direct.ping);
  });

  it('delivers progress notifications for a long-running call', () => {
    // The SDK may drop the last notification when the result lands in the same read (a client-side race,
    // seen over direct connections too), so: at least one, in order, and all three on the wire.
    expect(viaTap.progress.length).toBeGreaterThanOrEqual(1);
    expect(direct.progress.length).toBeGreaterThanOrEqual(1);
    viaTap.progress.forEach((p, i) => expect(p).toEqual({ progress: i + 1, total: 3 }));
    const onWire = viaTap.received.filter((m) => 'method' in m && m.method === 'notifications/progress');
    expect(onWire.map((m) => (m as { params: { progress: number } }).params.progress)).toEqual([1, 2, 3]);
  });

  it('carries a sampling request from the server and the client answer back', () => {
    expect(viaTap.samplingRequests).toBe(1);
    expect(viaTap.sampling).toContain(CANNED);
    expect(viaTap.sampling).toBe(direct.sampling);
    expect(viaTap.rootsRequests).toBe(direct.rootsRequests);
  });

  it('passes the server stderr through and announces the log path once', () => {
    expect(viaTap.stderr).toContain('Starting default (STDIO) server...');
    const own = viaTap.stderr.split('\n').filter((l) => l.startsWith('mcp-tap:'));
    expect(own).toEqual([`mcp-tap: logging to ${join(tmp.dir, 'mcp-tap', 'server-everything.jsonrpc.log')}`]);
  });

  it('writes the log 0600 in a 0700 directory, under the name derived from the command', () => {
    const dir = join(tmp.dir, 'mcp-tap');
    const file = join(dir, 'server-everything.jsonrpc.log');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('has one record per relayed line, each holding the message as sent, in order', () => {
    const recs = readRecords(join(tmp.dir, 'mcp-tap', 'server-everything.jsonrpc.log'));
    const seqs = recs.map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(new Set(recs.map((r) => r.session)).size).toBe(1);
    const msgs = (from: string) => recs.filter((r: Rec) => r.from === from && r.kind !== 'event' && r.kind !== 'stderr').map((r) => r.msg);
    expect(msgs('client')).toEqual(viaTap.sent);
    expect(msgs('server')).toEqual(viaTap.received);
    expect(recs.some((r) => r.kind === 'stderr' && String(r.raw).includes('Starting default (STDIO) server'))).toBe(true);
    expect(recs[0]).toMatchObject({ from: 'proxy', kind: 'event', event: 'start', name: 'server-everything' });
    expect(recs.at(-1)).toMatchObject({ from: 'proxy', kind: 'event', event: 'end' });
  });

  it('is clean and fully paired: no findings, every request answered and linked, nothing pending (issue 3)', () => {
    const recs = readRecords(join(tmp.dir, 'mcp-tap', 'server-everything.jsonrpc.log'));
    expect(recs.filter((r) => Array.isArray(r.notes) && r.notes.length > 0)).toEqual([]);
    expect(recs.filter((r) => r.kind === 'invalid' || r.kind === 'error')).toEqual([]);
    const requests = recs.filter((r) => r.kind === 'request');
    const answers = recs.filter((r) => r.kind === 'response');
    // both directions: the client's requests and the server's (sampling/createMessage, roots/list)
    expect(new Set(requests.map((r) => r.from))).toEqual(new Set(['client', 'server']));
    expect(answers).toHaveLength(requests.length);
    for (const req of requests) {
      const answer = answers.filter((a) => a.reqSeq === req.seq);
      expect(answer, `answer to #${req.seq} ${String(req.method)}`).toHaveLength(1);
      expect(answer[0]).toMatchObject({ id: req.id, method: req.method, from: req.from === 'client' ? 'server' : 'client' });
      expect(answer[0]!.ms as number).toBeGreaterThanOrEqual(0);
      expect(answer[0]!.seq).toBeGreaterThan(req.seq);
    }
    const progress = recs.filter((r) => r.method === 'notifications/progress');
    const long = requests.find((r) => r.target === 'trigger-long-running-operation');
    expect(progress.length).toBe(3);
    for (const p of progress) expect(p.reqSeq).toBe(long!.seq);
    expect(recs.find((r) => r.event === 'lifecycle')).toMatchObject({ protocolVersion: viaTap.protocolVersion, serverInfo: { name: viaTap.serverName } });
    expect(recs.at(-1)).toMatchObject({ event: 'end', pending: [] });
  });
});
