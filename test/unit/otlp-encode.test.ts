/**
 * The hand-written protobuf encoder, decoded by the receiver's protobufjs with the official
 * opentelemetry-proto files, says the same as the OTLP/JSON encoder: both normalized by the receiver's
 * own normalizeTrace must agree field for field (ids, kinds, nanosecond times, attributes of every type,
 * events, links, status).
 */
import { describe, expect, it } from 'vitest';
import { encodeTraceRequest } from '../../src/otlp/otlp-proto.js';
import { traceRequestJson, unixNanos } from '../../src/otlp/otlp-json.js';
import { originFor } from '../../src/otlp/origin.js';
import type { Span } from '../../src/otlp/spans.js';
import { toolRequire, withTestTools } from '../helpers/test-tools.js';

// the receiver comes from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('otlp-encode.test.ts');
const { normalizeTrace } = (TOOLS ? toolRequire('@elastic/mockotlpserver') : {}) as { normalizeTrace: (t: unknown) => Record<string, unknown> };
const { getProtoRoot } = (TOOLS ? toolRequire('@elastic/mockotlpserver/lib/proto.js') : {}) as {
  getProtoRoot: () => { lookupType: (n: string) => { decode: (b: Buffer) => unknown } };
};
const protoRoot = TOOLS ? getProtoRoot() : undefined!;

const spans: Span[] = [
  {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    parentSpanId: '00f067aa0ba902b7',
    name: 'tools/call échø',
    kind: 'client',
    start: 1796032584088.875,
    end: 1796032584095.125,
    attributes: { s: 'x', zero: 0, neg: -32602, big: 2 ** 40, frac: 0.5, yes: true, no: false, list: ['a', 'b'], empty: '' },
    events: [{ name: 'notifications/progress', time: 1796032584090.001, attributes: { 'mcp_tap.progress.progress': 1 } }],
    links: [{ traceId: '11111111111111111111111111111111', spanId: '2222222222222222' }],
    status: { code: 'error', message: 'boom' },
  },
  { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b7', name: 'root', kind: 'internal', start: 1, end: 2, attributes: {}, events: [], links: [], status: { code: 'unset' } },
  { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '00f067aa0ba902b8', name: 's', kind: 'server', start: 1, end: 2, attributes: {}, events: [], links: [], status: { code: 'unset' } },
];
const origin = originFor('everything', { 'deployment.environment.name': 'ci' });

/** The normalized forms differ only where proto3 leaves defaults out: fill those in. */
function withDefaults(t: Record<string, unknown>): unknown {
  const text = JSON.stringify(t);
  const v = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
  for (const s of v.resourceSpans[0]!.scopeSpans[0]!.spans) {
    const st = (s['status'] ??= {}) as Record<string, unknown>;
    st['code'] ??= 'STATUS_CODE_UNSET';
    for (const e of (s['events'] ?? []) as Record<string, unknown>[]) e['attributes'] ??= {};
    s['attributes'] ??= {};
  }
  return v;
}

describe.runIf(TOOLS)('OTLP encoders', () => {
  it('protobuf decodes with the official protos to what the JSON encoder says', () => {
    const bytes = encodeTraceRequest(spans, origin);
    const decoded = protoRoot.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest').decode(bytes);
    const fromProto = normalizeTrace(decoded);
    const fromJson = normalizeTrace(JSON.parse(JSON.stringify(traceRequestJson(spans, origin))));
    expect(withDefaults(fromProto)).toEqual(withDefaults(fromJson));
  });

  it('a batch far larger than the writer\'s first buffer (multi-byte lengths, growth) decodes the same way', () => {
    const many: Span[] = Array.from({ length: 400 }, (_, i) => ({
      ...spans[0]!,
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: `n${'x'.repeat(i)}`,
      attributes: { ...spans[0]!.attributes, long: 'é'.repeat(i * 3) },
    }));
    const bytes = encodeTraceRequest(many, origin);
    expect(bytes.length).toBeGreaterThan(300_000);
    const decoded = protoRoot.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest').decode(bytes);
    expect(withDefaults(normalizeTrace(decoded))).toEqual(withDefaults(normalizeTrace(JSON.parse(JSON.stringify(traceRequestJson(many, origin))))));
  });

  it('the decoded span holds the values written, independent of the JSON encoder', () => {
    const decoded = protoRoot.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest').decode(encodeTraceRequest(spans, origin));
    const t = normalizeTrace(decoded) as { resourceSpans: { resource: { attributes: Record<string, unknown> }; scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[] };
    const rs = t.resourceSpans[0]!;
    expect(rs.resource.attributes['service.name']).toBe('everything');
    expect(rs.resource.attributes['deployment.environment.name']).toBe('ci');
    const s = rs.scopeSpans[0]!.spans[0]!;
    expect(s['traceId']).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(s['spanId']).toBe('b7ad6b7169203331');
    expect(s['parentSpanId']).toBe('00f067aa0ba902b7');
    expect(s['name']).toBe('tools/call échø');
    expect(s['kind']).toBe('SPAN_KIND_CLIENT');
    expect(s['startTimeUnixNano']).toBe('1796032584088875000');
    expect(s['endTimeUnixNano']).toBe('1796032584095125000');
    expect(s['attributes']).toEqual({ s: 'x', zero: 0, neg: -32602, big: 2 ** 40, frac: 0.5, yes: true, no: false, list: ['a', 'b'], empty: '' });
    expect(s['status']).toEqual({ message: 'boom', code: 'STATUS_CODE_ERROR' });
    expect(rs.scopeSpans[0]!.spans[2]!['kind']).toBe('SPAN_KIND_SERVER');
  });

  it('times become exact unix nanoseconds from µs-precision milliseconds', () => {
    expect(unixNanos(1796032584088.875)).toBe('1796032584088875000');
    expect(unixNanos(0.001)).toBe('1000');
  });
});
