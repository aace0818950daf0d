/**
 * What a receiver gets from the live OTLP tap, and what the tap counts when the receiver says no, over
 * real HTTP: spans whose nested protobuf messages are of every length around the one-byte length limit
 * (127) decode with the official protos to the values recorded; a receiver that rejects the last batch at
 * exit (400) costs exactly those spans, counted as `rejected`, never as delivered.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OtlpTap } from '../../src/otlp/otlp-tap.js';
import type { OtlpProtocol } from '../../src/otlp/otlp-config.js';
import type { LogRecord } from '../../src/log/record.js';
import { toolRequire, withTestTools } from '../helpers/test-tools.js';

// the receiver's protos come from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('otlp-receiver.test.ts');
type Decoder = { decode: (b: Buffer) => unknown };
const { normalizeTrace } = TOOLS
  ? (toolRequire('@elastic/mockotlpserver') as { normalizeTrace: (t: unknown) => unknown })
  : { normalizeTrace: (t: unknown) => t };
const requestType: Decoder | null = TOOLS
  ? (toolRequire('@elastic/mockotlpserver/lib/proto.js') as { getProtoRoot: () => { lookupType: (n: string) => Decoder } })
      .getProtoRoot()
      .lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest')
  : null;

let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A receiver answering every POST with `status`; the bodies it got. */
async function receiver(status: number): Promise<{ url: string; bodies: Buffer[] }> {
  const bodies: Buffer[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/traces`, bodies };
}

function tapFor(url: string, protocol: OtlpProtocol, warnings: string[]): OtlpTap {
  return new OtlpTap({ config: { url, protocol, headers: {}, timeoutMs: 5000, serviceName: 'mcp-tap', resource: {} }, warn: (m) => warnings.push(m) });
}

/** One session of `calls` tools/call requests, each answered; the end record closes the root. */
function session(tap: OtlpTap, calls: Array<{ target: string }>): void {
  let seq = 0;
  const rec = (f: Record<string, unknown>) => tap.record({ record: { v: 1, time: 1_796_032_584_000 + ++seq, session: 'sess-r', seq, ...f } as LogRecord });
  rec({ from: 'proxy', kind: 'event', event: 'start', name: 'r', command: 'node', args: ['s.js'] });
  for (const [i, c] of calls.entries()) {
    rec({ from: 'client', kind: 'request', id: i, method: 'tools/call', target: c.target, msg: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: c.target } } });
    rec({ from: 'server', kind: 'response', id: i, method: 'tools/call', target: c.target, reqSeq: seq, msg: { jsonrpc: '2.0', id: i, result: {} } });
  }
  rec({ from: 'proxy', kind: 'event', event: 'end', pendingCount: 0, exitCode: 0 });
}

describe.runIf(TOOLS)('the live OTLP tap and its receiver', () => {
  it('sends protobuf that decodes to every value, whatever the length of its nested messages', async () => {
    const r = await receiver(200);
    const warnings: string[] = [];
    const tap = tapFor(r.url, 'http/protobuf', warnings);
    // tool names of 90..160 characters: the attribute, the name and the span around them cross 127 bytes
    const targets = Array.from({ length: 71 }, (_, i) => `t${'x'.repeat(89 + i)}`);
    session(tap, targets.map((target) => ({ target })));
    await tap.flush(5000);
    await tap.close(5000);
    expect(warnings).toEqual([]);
    const spans = r.bodies.flatMap((b) => {
      const t = normalizeTrace(requestType!.decode(b)) as { resourceSpans: { scopeSpans: { spans: Array<{ name: string; attributes: Record<string, unknown> }> }[] }[] };
      return t.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans));
    });
    const calls = spans.filter((s) => s.attributes['mcp.method.name'] === 'tools/call');
    expect(calls.map((s) => s.name)).toEqual(targets.map((t) => `tools/call ${t}`));
    expect(calls.map((s) => s.attributes['gen_ai.tool.name'])).toEqual(targets);
    expect(spans.filter((s) => s.name === 'mcp-tap r')).toHaveLength(1);
  });

  it('counts the spans a receiver rejects at exit as rejected, none as delivered', async () => {
    const r = await receiver(400);
    const warnings: string[] = [];
    const tap = tapFor(r.url, 'http/json', warnings);
    session(tap, [{ target: 'a' }, { target: 'b' }]);
    // the spans wait for company (a partial batch); the exit's flush sends them, once
    await tap.flush(5000);
    expect(r.bodies).toHaveLength(1);
    expect(tap.takeLoss()).toEqual({ lost: 3, reason: 'rejected' });
    expect(warnings).toEqual([`OTLP export to ${r.url} is losing spans (HTTP 400); the relay goes on, losses are counted in the log`]);
    await tap.close(1000);
    expect(tap.takeLoss()).toBeNull();
  });
});
