/**
 * Spans → an OTLP/JSON `ExportTraceServiceRequest` (the proto3 JSON mapping with OTLP's exceptions: ids
 * as hex, enums as integers, 64-bit integers as strings). Pure.
 */
import type { AttrValue, Attributes, Span, SpanKind } from './spans.js';

/** What produced the spans: the resource (`service.name` …) and the instrumentation scope. */
export interface SpanOrigin {
  resource: Attributes;
  scope: { name: string; version: string };
}

export const SPAN_KIND_CODE: Record<SpanKind, number> = { internal: 1, server: 2, client: 3 };
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** Epoch ms (µs precision) → unix nanoseconds as a decimal string. */
export function unixNanos(ms: number): string {
  return (BigInt(Math.round(ms * 1000)) * 1000n).toString();
}

type JsonAnyValue = { stringValue: string } | { boolValue: boolean } | { intValue: string } | { doubleValue: number } | { arrayValue: { values: JsonAnyValue[] } };

function anyValue(v: AttrValue): JsonAnyValue {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } };
}

/** Attributes as OTLP/JSON KeyValues. */
export function keyValues(attrs: Attributes): { key: string; value: JsonAnyValue }[] {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
}

function spanJson(s: Span): Record<string, unknown> {
  const out: Record<string, unknown> = { traceId: s.traceId, spanId: s.spanId };
  if (s.parentSpanId !== undefined) out['parentSpanId'] = s.parentSpanId;
  out['name'] = s.name;
  out['kind'] = SPAN_KIND_CODE[s.kind];
  out['startTimeUnixNano'] = unixNanos(s.start);
  out['endTimeUnixNano'] = unixNanos(s.end);
  out['attributes'] = keyValues(s.attributes);
  if (s.events.length > 0) out['events'] = s.events.map((e) => ({ timeUnixNano: unixNanos(e.time), name: e.name, attributes: keyValues(e.attributes) }));
  if (s.links.length > 0) out['links'] = s.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId }));
  const status: Record<string, unknown> = { code: STATUS_CODE[s.status.code] };
  if (s.status.message !== undefined) status['message'] = s.status.message;
  out['status'] = status;
  return out;
}

/** One request holding `spans`, as an object ready for JSON.stringify. */
export function traceRequestJson(spans: readonly Span[], origin: SpanOrigin): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(origin.resource) },
        scopeSpans: [{ scope: { name: origin.scope.name, version: origin.scope.version }, spans: spans.map(spanJson) }],
      },
    ],
  };
}
