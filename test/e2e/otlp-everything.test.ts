/**
 * A real SDK client session against server-everything through the built mcp-tap with --otlp, received
 * by a real OTLP receiver (@elastic/mockotlpserver on 127.0.0.1), over http/protobuf and http/json: the
 * trace matches the log one to one (names, kinds, attributes, parent/child, traceparent joining, error
 * status, start and end times). Then `export --format otlp` of that log, posted to the receiver, gives
 * the very same spans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { waitFor } from '../helpers/wait.js';
import { toolRequire, withTestTools } from '../helpers/test-tools.js';

// the receiver comes from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('otlp-everything.test.ts');
const { MockOtlpServer, normalizeTrace, normalizeMetrics } = (TOOLS ? toolRequire('@elastic/mockotlpserver') : {}) as {
  MockOtlpServer: new (o: object) => { start(): Promise<void>; close(): Promise<void>; httpUrl: URL };
  normalizeTrace: (t: unknown) => Trace;
  normalizeMetrics: (m: unknown) => Metrics;
};

interface NPoint {
  attributes: Record<string, unknown>;
  count: string | number;
  sum: number;
  bucketCounts: (string | number)[];
}
interface Metrics {
  resourceMetrics: { resource: { attributes: Record<string, unknown> }; scopeMetrics: { metrics: { name: string; unit: string; histogram: { dataPoints: NPoint[] } }[] }[] }[];
}

interface NSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  events?: { name: string; timeUnixNano: string }[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: string; message?: string };
}
interface Trace {
  resourceSpans: { resource: { attributes: Record<string, unknown> }; scopeSpans: { spans: NSpan[] }[] }[];
}

const HOST_TRACE = '0af7651916cd43dd8448eb211c80319c';
const HOST_SPAN = 'b7ad6b7169203331';

let receiver: InstanceType<typeof MockOtlpServer>;
const received: Trace[] = [];
const receivedMetrics: Metrics[] = [];
const tmp = tempDir('mcp-tap-otlp-');

beforeAll(async () => {
  if (!TOOLS) return;
  receiver = new MockOtlpServer({ services: ['http'], httpHostname: '127.0.0.1', httpPort: 0, logLevel: 'error', onTrace: (t: unknown) => received.push(normalizeTrace(t)), onMetrics: (m: unknown) => receivedMetrics.push(normalizeMetrics(m)) });
  await receiver.start();
});
afterAll(async () => {
  await receiver?.close();
  tmp.cleanup();
});

const spansOf = (traces: Trace[]): NSpan[] => traces.flatMap((t) => t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const nanos = (ms: unknown): string => `${Math.round(Number(ms) * 1000)}000`;

/** The session: tools, a traced call, progress, a server→client request, a tool error and a protocol error. */
async function runSession(logPath: string, protocol: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--log', logPath, '--otlp', receiver.httpUrl.toString(), '--', process.execPath, EVERYTHING, 'stdio'],
    env: { ...(process.env as Record<string, string>), OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: `everything-${protocol}` },
    stderr: 'pipe',
    cwd: ROOT,
  });
  const client = new Client({ name: 'otlp-e2e', version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'ok' } }));
  await client.connect(transport);
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { message: 'traced' }, _meta: { traceparent: `00-${HOST_TRACE}-${HOST_SPAN}-01` } });
  await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
  await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: () => {} });
  await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 5 } });
  await client.callTool({ name: 'no-such-tool', arguments: {} }).catch(() => {});
  await client.getPrompt({ name: 'no-such-prompt' }).catch(() => {});
  await client.close();
}

/** What the log says the trace must be, worked out from the records alone. */
function expectTraceMatchesLog(recs: Rec[], spans: NSpan[], service: string, traces: Trace[]): void {
  const start = recs.find((r) => r.event === 'start')!;
  const end = recs.find((r) => r.event === 'end')!;
  const requests = recs.filter((r) => r.kind === 'request');
  expect(spans).toHaveLength(requests.length + 1);
  const root = spans.find((s) => s.parentSpanId === undefined && s.name.startsWith('mcp-tap '))!;
  expect(root.name).toBe(`mcp-tap ${String(start['name'])}`);
  expect(root.kind).toBe('SPAN_KIND_INTERNAL');
  expect(root.startTimeUnixNano).toBe(nanos(start.time));
  expect(root.endTimeUnixNano).toBe(nanos(end.time));
  expect(root.attributes['process.exit.code']).toBe(end['exitCode']);
  for (const t of traces) expect(t.resourceSpans[0]!.resource.attributes['service.name']).toBe(service);

  const byName = new Map<string, NSpan[]>();
  for (const s of spans) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  const sawError = { protocol: false, tool: false, joined: false };
  for (const req of requests) {
    const name = req['target'] !== undefined ? `${String(req['method'])} ${String(req['target'])}` : String(req['method']);
    const span = (byName.get(name) ?? []).find((s) => s.attributes['jsonrpc.request.id'] === String(req['id']) && s.startTimeUnixNano === nanos(req.time));
    expect(span, `span for request seq ${req.seq} (${name})`).toBeDefined();
    const answer = recs.find((r) => (r.kind === 'response' || r.kind === 'error') && r['reqSeq'] === req.seq)!;
    expect(span!.endTimeUnixNano).toBe(nanos(answer.time));
    expect(span!.kind).toBe(req.from === 'client' ? 'SPAN_KIND_CLIENT' : 'SPAN_KIND_SERVER');
    expect(span!.attributes['mcp.method.name']).toBe(req['method']);
    expect(span!.attributes['mcp.session.id']).toBe(req.session);
    expect(span!.attributes['network.transport']).toBe('pipe');
    if (req['method'] !== 'initialize') expect(span!.attributes['mcp.protocol.version']).toBe('2025-11-25');
    if (req['method'] === 'tools/call') {
      expect(span!.attributes['gen_ai.tool.name']).toBe(req['target']);
      expect(span!.attributes['gen_ai.operation.name']).toBe('execute_tool');
    }
    if (req['method'] === 'prompts/get') expect(span!.attributes['gen_ai.prompt.name']).toBe(req['target']);
    const progress = recs.filter((r) => r['method'] === 'notifications/progress' && r['reqSeq'] === req.seq);
    expect((span!.events ?? []).filter((e) => e.name === 'notifications/progress').map((e) => e.timeUnixNano)).toEqual(progress.map((p) => nanos(p.time)));
    if (answer.kind === 'error') {
      const code = (answer['msg'] as { error: { code: number } }).error.code;
      expect(span!.attributes['rpc.response.status_code']).toBe(String(code));
      expect(span!.attributes['error.type']).toBe(String(code));
      expect(span!.status?.code).toBe('STATUS_CODE_ERROR');
      sawError.protocol = true;
    } else if (answer['isError'] === true) {
      expect(span!.attributes['error.type']).toBe('tool_error');
      expect(span!.status?.code).toBe('STATUS_CODE_ERROR');
      sawError.tool = true;
    } else {
      expect(span!.attributes['error.type']).toBeUndefined();
      expect(span!.status?.code ?? 'STATUS_CODE_UNSET').toBe('STATUS_CODE_UNSET');
    }
    const traced = JSON.stringify(req['msg']).includes(HOST_TRACE);
    if (traced) {
      expect(span!.traceId).toBe(HOST_TRACE);
      expect(span!.parentSpanId).toBe(HOST_SPAN);
      expect(span!.links).toEqual([{ traceId: root.traceId, spanId: root.spanId }]);
      sawError.joined = true;
    } else {
      expect(span!.traceId).toBe(root.traceId);
      expect(span!.parentSpanId).toBe(root.spanId);
    }
  }
  // the session exercised each case
  expect(sawError).toEqual({ protocol: true, tool: true, joined: true });
  expect(requests.some((r) => r.from === 'server')).toBe(true);
}

const live: Record<string, NSpan[]> = {};

describe.runIf(TOOLS).each(['http/protobuf', 'http/json'])('--otlp over %s', (protocol) => {
  it('the receiver gets a trace whose spans match the log one to one', async () => {
    received.length = 0;
    receivedMetrics.length = 0;
    const logPath = join(tmp.dir, `${protocol.replace('/', '-')}.jsonrpc.log`);
    await runSession(logPath, protocol);
    const recs = readRecords(logPath);
    const want = recs.filter((r) => r.kind === 'request').length + 1;
    await waitFor(() => spansOf(received).length >= want, 10_000, `${want} spans at the receiver`);
    expect(recs.some((r) => r.event === 'sink-gap')).toBe(false);
    live[protocol] = spansOf(received);
    expectTraceMatchesLog(recs, live[protocol]!, `everything-${protocol}`, received);
    // the duration histograms, sent when the session ended: one count per request the client sent
    await waitFor(() => receivedMetrics.length > 0, 10_000, 'the duration histograms at the receiver');
    const last = receivedMetrics[receivedMetrics.length - 1]!;
    expect(last.resourceMetrics[0]!.resource.attributes['service.name']).toBe(`everything-${protocol}`);
    const metrics = last.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((sm) => sm.metrics));
    const ops = metrics.find((m) => m.name === 'mcp.client.operation.duration')!;
    expect(ops.unit).toBe('s');
    const fromClient = recs.filter((r) => r.kind === 'request' && r.from === 'client');
    expect(ops.histogram.dataPoints.reduce((a, p) => a + Number(p.count), 0)).toBe(fromClient.length);
    const calls = ops.histogram.dataPoints.filter((p) => p.attributes['mcp.method.name'] === 'tools/call');
    expect(calls.reduce((a, p) => a + Number(p.count), 0)).toBe(fromClient.filter((r) => r['method'] === 'tools/call').length);
    expect(calls.some((p) => p.attributes['error.type'] === 'tool_error')).toBe(true);
    for (const p of ops.histogram.dataPoints) {
      expect(p.attributes['jsonrpc.request.id']).toBeUndefined();
      expect(p.attributes['mcp.session.id']).toBeUndefined();
      expect(p.bucketCounts.reduce((a: number, b) => a + Number(b), 0)).toBe(Number(p.count));
    }
    const session = metrics.find((m) => m.name === 'mcp.client.session.duration')!;
    const start = recs.find((r) => r.event === 'start')!;
    const end = recs.find((r) => r.event === 'end')!;
    expect(session.histogram.dataPoints).toHaveLength(1);
    expect(session.histogram.dataPoints[0]!.sum).toBeCloseTo((end.time - start.time) / 1000, 5);
  });
});

describe.runIf(TOOLS)('export --format otlp', () => {
  it('posted to the receiver, gives the same spans as the live export of that session', async () => {
    const logPath = join(tmp.dir, 'http-json.jsonrpc.log');
    const out = join(tmp.dir, 'trace.json');
    execFileSync(process.execPath, [CLI, 'export', logPath, '--format', 'otlp', '-o', out], { env: { ...process.env, OTEL_SERVICE_NAME: 'everything-http/json' } });
    received.length = 0;
    const res = await fetch(new URL('/v1/traces', receiver.httpUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: readFileSync(out) });
    expect(res.status).toBe(200);
    await waitFor(() => received.length > 0, 5000, 'the export at the receiver');
    const exported = spansOf(received);
    const norm = (spans: NSpan[]) => [...spans].map((s) => ({ ...s, status: { code: 'STATUS_CODE_UNSET', ...s.status } })).sort((a, b) => a.spanId.localeCompare(b.spanId));
    expect(live['http/json']).toBeDefined();
    expect(norm(exported)).toEqual(norm(live['http/json']!));
    expectTraceMatchesLog(readRecords(logPath), exported, 'everything-http/json', received);
  });
});
