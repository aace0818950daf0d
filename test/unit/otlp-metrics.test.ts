/**
 * The duration histograms beside the spans: requests the client sent count in
 * mcp.client.operation.duration by method, tool and outcome, the session in mcp.client.session.duration;
 * bucket counts, sums, min and max as hand-computed here; the protobuf encoding decodes with the
 * receiver's own protobufjs and the official protos to what the OTLP/JSON encoding says.
 */
import { describe, expect, it } from 'vitest';
import { DurationMetrics, DURATION_BOUNDS, METRIC_OPERATION, METRIC_SESSION } from '../../src/otlp/metrics.js';
import { encodeMetricsRequest, metricsRequestJson } from '../../src/otlp/otlp-metrics.js';
import { originFor } from '../../src/otlp/origin.js';
import type { Span } from '../../src/otlp/spans.js';
import { toolRequire, withTestTools } from '../helpers/test-tools.js';

// the receiver comes from the test tools (.cache/test-tools), installed when missing
const TOOLS = await withTestTools('otlp-metrics.test.ts');
const { normalizeMetrics } = (TOOLS ? toolRequire('@elastic/mockotlpserver') : {}) as { normalizeMetrics: (t: unknown) => Record<string, unknown> };
const { getProtoRoot } = (TOOLS ? toolRequire('@elastic/mockotlpserver/lib/proto.js') : {}) as {
  getProtoRoot: () => { lookupType: (n: string) => { decode: (b: Buffer) => unknown } };
};

const T0 = 1796032584000;
function span(kind: Span['kind'], ms: number, attributes: Span['attributes'], parent = 'root'): Span {
  return { traceId: 't'.repeat(32), spanId: 's'.repeat(16), ...(parent ? { parentSpanId: parent } : {}), name: 'x', kind, start: T0, end: T0 + ms, attributes, events: [], links: [], status: { code: 'unset' } };
}
const call = (tool: string, ms: number, error?: string) =>
  span('client', ms, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'jsonrpc.request.id': String(ms), 'mcp.session.id': 'abc', 'network.transport': 'pipe', ...(error ? { 'error.type': error } : {}) });

function metricsOf(spans: Span[]): DurationMetrics {
  const m = new DurationMetrics(T0 - 1000);
  for (const s of spans) m.add(s);
  return m;
}

describe('duration metrics', () => {
  it('counts client requests by method, tool and outcome (never by request or session id) into the conventions\' buckets', () => {
    const m = metricsOf([call('echo', 5), call('echo', 15), call('echo', 250), call('echo', 400_000), call('echo', 70, 'tool_error'), call('add', 10)]);
    const [ops] = m.collect();
    expect(ops!.name).toBe(METRIC_OPERATION);
    expect(ops!.unit).toBe('s');
    const echo = ops!.points.find((p) => p.attributes['gen_ai.tool.name'] === 'echo' && p.attributes['error.type'] === undefined)!;
    expect(echo.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo', 'network.transport': 'pipe' });
    expect(echo.count).toBe(4);
    expect(echo.sum).toBeCloseTo(0.005 + 0.015 + 0.25 + 400, 9);
    expect(echo.min).toBe(0.005);
    expect(echo.max).toBe(400);
    // bounds 0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10 30 60 120 300, then above: 5 ms, 15 ms, 250 ms, 400 s
    expect(echo.buckets).toEqual([1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    // a value on a bound counts in that bound's bucket (upper bounds are inclusive)
    const add = ops!.points.find((p) => p.attributes['gen_ai.tool.name'] === 'add')!;
    expect(add.buckets[0]).toBe(1);
    const failed = ops!.points.find((p) => p.attributes['error.type'] === 'tool_error')!;
    expect(failed.count).toBe(1);
    expect(failed.buckets[3]).toBe(1);
  });

  it('the session\'s root span is the session duration; requests the server sent and other spans are not counted', () => {
    const m = metricsOf([
      span('internal', 65_000, { 'mcp.session.id': 'abc', 'network.transport': 'pipe', 'error.type': '1', 'process.exit.code': 1 }, ''),
      span('server', 30, { 'mcp.method.name': 'sampling/createMessage' }),
      span('internal', 30, { 'mcp.method.name': 'x' }),
    ]);
    const metrics = m.collect();
    expect(metrics.map((x) => x.name)).toEqual([METRIC_SESSION]);
    expect(metrics[0]!.points).toEqual([{ attributes: { 'error.type': '1', 'network.transport': 'pipe' }, count: 1, sum: 65, min: 65, max: 65, buckets: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0] }]);
    expect(m.recordedCount).toBe(1);
  });

  it('keeps at most 1,000 series a metric: the rest go to the overflow series, nothing is lost', () => {
    const m = metricsOf(Array.from({ length: 1500 }, (_, i) => call(`tool-${i}`, 1)));
    const [ops] = m.collect();
    expect(ops!.points).toHaveLength(1000);
    const overflow = ops!.points.find((p) => p.attributes['otel.metric.overflow'] === true)!;
    expect(overflow.count).toBe(501);
    expect(ops!.points.reduce((a, p) => a + p.count, 0)).toBe(1500);
  });

  it.runIf(TOOLS)('protobuf decodes with the official protos to what OTLP/JSON says, cumulative from the start', () => {
    const metrics = metricsOf([call('echo', 5), call('echo', 250, 'tool_error'), span('internal', 2000, { 'network.transport': 'pipe' }, '')]).collect();
    const origin = originFor('everything', {});
    const now = T0 + 5000.5;
    const decoded = getProtoRoot().lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest').decode(encodeMetricsRequest(metrics, origin, now));
    const fromProto = normalizeMetrics(decoded);
    const fromJson = normalizeMetrics(JSON.parse(JSON.stringify(metricsRequestJson(metrics, origin, now))));
    expect(fromProto).toEqual(fromJson);
    const text = JSON.stringify(fromProto);
    expect(text).toContain('"mcp.client.operation.duration"');
    expect(text).toMatch(/"aggregationTemporality":(2|"AGGREGATION_TEMPORALITY_CUMULATIVE")/);
    const raw = decoded as { resourceMetrics: { scopeMetrics: { metrics: { histogram: { dataPoints: { count: { toNumber(): number }; bucketCounts: { toNumber(): number }[]; explicitBounds: number[]; startTimeUnixNano: { toString(): string } }[] } }[] }[] }[] };
    const p = raw.resourceMetrics[0]!.scopeMetrics[0]!.metrics[0]!.histogram.dataPoints[0]!;
    expect(p.count.toNumber()).toBe(1);
    expect(p.explicitBounds).toEqual(DURATION_BOUNDS);
    expect(p.bucketCounts.map((b) => b.toNumber())).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(p.startTimeUnixNano.toString()).toBe('1796032583000000000');
  });
});
