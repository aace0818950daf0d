/**
 * No false alarm from the spec lens on real traffic (issue 29): the official SDK client through mcp-tap
 * against server-everything, once in the SDK's own revision (2025-11-25: tools of every kind — text,
 * images, structured content, annotations, resource links and embedded resources —, progress, sampling,
 * elicitation, roots, logging, resources, templates, prompts, completion, ping) and once offering the
 * first revision, 2024-11-05 (the client's initialize is rewritten on its way out; both sides then speak
 * it). Both logs pass `check --fail-on spec`, and tail shows no schema-violation. And the stateless era,
 * 2026-07-28, which neither the TypeScript SDK nor server-everything speaks yet: the official Python SDK
 * (mcp 2.3.0, `npm run setup:python`) as client and server — server/discover, `_meta` on every request,
 * `resultType` and cache hints on every result — passes too, and one answer without its `resultType`
 * is the one flagged.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';
import { describeWithPython, PY_FIXTURES, PYTHON } from '../helpers/python-sdk.js';

const run = promisify(execFile);

/** Offers `version` in the client's initialize instead of the SDK's latest. */
class OfferVersion implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(
    private readonly inner: Transport,
    private readonly version: string | null,
  ) {}
  async start(): Promise<void> {
    this.inner.onmessage = (m) => this.onmessage?.(m);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    await this.inner.start();
  }
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { method?: string; params?: Record<string, unknown> };
    const out = this.version !== null && m.method === 'initialize' ? ({ ...message, params: { ...m.params, protocolVersion: this.version } } as JSONRPCMessage) : message;
    await this.inner.send(out, options);
  }
  async close(): Promise<void> {
    await this.inner.close();
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

const env = (dir: string): Record<string, string> => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'MCP_TAP_LOG') e[k] = v;
  return { ...e, XDG_STATE_HOME: dir };
};

/** One session through mcp-tap; `latest`: every feature of 2025-11-25, else what 2024-11-05 has. */
async function session(log: string, dir: string, offer: string | null): Promise<void> {
  const latest = offer === null;
  const stdio = new StdioClientTransport({ command: process.execPath, args: [CLI, '--log', log, '--grace', '300', '--', process.execPath, EVERYTHING, 'stdio'], env: env(dir), stderr: 'pipe', cwd: ROOT });
  const client = new Client(
    { name: 'mcp-tap-spec-e2e', version: '1.0.0' },
    { capabilities: { sampling: {}, roots: { listChanged: true }, ...(latest ? { elicitation: { form: {} } } : {}) } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'canned', role: 'assistant', content: { type: 'text', text: 'canned reply' } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp/spec-e2e', name: 'root' }] }));
  if (latest) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
  await client.connect(new OfferVersion(stdio, offer));
  try {
    await client.ping();
    const tools = new Set((await client.listTools()).tools.map((t) => t.name));
    const call = async (name: string, args: Record<string, unknown> = {}) => (tools.has(name) ? client.callTool({ name, arguments: args }) : undefined);
    await call('echo', { message: 'hi' });
    await call('get-sum', { a: 1, b: 2 });
    await call('get-tiny-image');
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 2 } }, undefined, { onprogress: () => {} });
    await call('trigger-sampling-request', { prompt: 'hi', maxTokens: 5 });
    await call('get-roots-list');
    await client.setLoggingLevel('debug');
    await call('toggle-simulated-logging');
    if (latest) {
      await call('get-structured-content', { location: 'New York' });
      await call('get-annotated-message', { messageType: 'success', includeImage: true });
      await call('get-resource-links', { count: 2 });
      await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
      await call('trigger-elicitation-request');
      await client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } });
    }
    const resources = (await client.listResources()).resources;
    await client.listResourceTemplates();
    for (const r of resources.slice(0, 2)) await client.readResource({ uri: r.uri });
    if (resources[0] && client.getServerCapabilities()?.resources?.subscribe) {
      await client.subscribeResource({ uri: resources[0].uri });
      await client.unsubscribeResource({ uri: resources[0].uri });
    }
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    if (prompts.includes('simple-prompt')) await client.getPrompt({ name: 'simple-prompt' });
    if (prompts.includes('resource-prompt')) await client.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '1' } });
    await call('toggle-simulated-logging');
  } finally {
    await client.close();
  }
}

async function check(log: string): Promise<{ code: number; report: { passed: boolean; problems: Array<{ ruleId: string; message: string }>; summary: { specViolations: number } } }> {
  try {
    const r = await run(process.execPath, [CLI, 'check', log, '--fail-on', 'spec', '--format', 'json'], { timeout: 30_000 });
    return { code: 0, report: JSON.parse(r.stdout) };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, report: JSON.parse(e.stdout ?? '{}') };
  }
}

/**
 * `log` with the first answer whose line holds `marker` broken by hand (`from` → `to`), written to `broken`:
 * check fails on exactly that line, a schema-violation; its message.
 */
async function onlyFlagged(log: string, broken: string, marker: string, from: string, to: string): Promise<string> {
  const lines = readFileSync(log, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('"kind":"response"') && l.includes(marker));
  expect(at).toBeGreaterThan(0);
  expect(lines[at]).toContain(from);
  lines[at] = lines[at]!.replace(from, to);
  writeFileSync(broken, lines.join('\n'));
  const { code, report } = await check(broken);
  expect(code).toBe(1);
  expect(report.problems.map((p) => [p.ruleId, p.line])).toEqual([['schema-violation', at + 1]]);
  return report.problems[0]!.message;
}

describe('real SDK sessions against server-everything have no schema violation', () => {
  let tmp: { dir: string; cleanup: () => void };
  const logs = { latest: '', oldest: '' };
  beforeAll(async () => {
    tmp = tempDir('mcp-tap-spec-sdk-');
    logs.latest = join(tmp.dir, 'latest.jsonrpc.log');
    logs.oldest = join(tmp.dir, 'oldest.jsonrpc.log');
    await Promise.all([session(logs.latest, tmp.dir, null), session(logs.oldest, tmp.dir, '2024-11-05')]);
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  for (const [which, version] of [['latest', '2025-11-25'], ['oldest', '2024-11-05']] as const) {
    it(`${which}: negotiated ${version}, many methods both ways, and check --fail-on spec passes`, async () => {
      const recs = readRecords(logs[which]);
      expect(recs.find((r) => r.event === 'lifecycle')).toMatchObject({ protocolVersion: version });
      const methods = new Set(recs.filter((r) => r.kind === 'request' || r.kind === 'notification').map((r) => `${r.from} ${String(r.method)}`));
      for (const m of ['client tools/call', 'client resources/read', 'client prompts/get', 'client logging/setLevel', 'server sampling/createMessage', 'server roots/list', 'server notifications/progress', 'server notifications/message']) expect(methods, m).toContain(m);
      if (which === 'latest') for (const m of ['server elicitation/create', 'client completion/complete']) expect(methods, m).toContain(m);
      const { code, report } = await check(logs[which]);
      expect(report.problems.filter((p) => p.ruleId === 'schema-violation').map((p) => p.message)).toEqual([]);
      expect(report.summary.specViolations).toBe(0);
      expect(code).toBe(0);
    });
  }

  it('the same log with one answer broken by hand has exactly that one flagged', async () => {
    const message = await onlyFlagged(logs.latest, join(tmp.dir, 'broken.jsonrpc.log'), '"target":"echo"', '"type":"text","text":', '"type":"text","txt":');
    expect(message).toContain('/result/content/0/text: expected string, found nothing (missing)');
  });

  it('tail of both logs shows no schema-violation', async () => {
    for (const log of [logs.latest, logs.oldest]) {
      const r = await run(process.execPath, [CLI, 'tail', log], { env: { ...process.env, NO_COLOR: '1' }, timeout: 30_000 });
      expect(r.stdout).toContain('tools/call');
      expect(r.stdout).not.toContain('schema-violation');
    }
  });
});

describeWithPython('a real stateless (2026-07-28) session', 'spec-sdk-sessions.test.ts')('a real stateless (2026-07-28) session: the Python SDK client and server', () => {
  let tmp: { dir: string; cleanup: () => void };
  let log: string;
  beforeAll(async () => {
    tmp = tempDir('mcp-tap-spec-py-');
    log = join(tmp.dir, 'py.jsonrpc.log');
    const r = await run(PYTHON, [join(PY_FIXTURES, 'client.py'), process.execPath, CLI, '--log', log, '--', PYTHON, join(PY_FIXTURES, 'echo_server.py')], { cwd: ROOT, env: env(tmp.dir), timeout: 30_000 });
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ protocolVersion: '2026-07-28', echo: ['echo: hi'] });
  }, 60_000);
  afterAll(() => tmp?.cleanup());

  it('server/discover, per-request _meta, resultType and cache hints: check --fail-on spec passes', async () => {
    const recs = readRecords(log);
    expect(recs.find((r) => r.event === 'lifecycle')).toMatchObject({ protocolVersion: '2026-07-28', era: 'stateless' });
    const requests = recs.filter((r) => r.kind === 'request');
    expect(requests.map((r) => r.method)).toEqual(['server/discover', 'tools/list', 'tools/call']);
    for (const q of requests) expect((q.msg as { params: { _meta: Record<string, unknown> } }).params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    const results = recs.filter((r) => r.kind === 'response').map((r) => (r.msg as { result: Record<string, unknown> }).result);
    expect(results.map((r) => r['resultType'])).toEqual(['complete', 'complete', 'complete']);
    expect(results[0]).toMatchObject({ cacheScope: expect.any(String), ttlMs: expect.any(Number), supportedVersions: ['2026-07-28'] });
    const { code, report } = await check(log);
    expect(report.problems.filter((p) => p.ruleId === 'schema-violation').map((p) => p.message)).toEqual([]);
    expect(code).toBe(0);
  });

  it('an answer without its resultType is the one flagged', async () => {
    const message = await onlyFlagged(log, join(tmp.dir, 'py-broken.jsonrpc.log'), '"method":"tools/list"', '"resultType":"complete",', '');
    expect(message).toContain('ListToolsResult of MCP 2026-07-28: /result/resultType: expected string, found nothing (missing)');
  });
});
