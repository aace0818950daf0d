/**
 * The MCP semantic conventions' duration histograms, aggregated from finished spans (spans.ts), so the
 * metrics and the traces tell one story: `mcp.client.operation.duration` for every request the client
 * sent (answered, failed, cancelled or never answered; a task-augmented call lasts until its task ended)
 * and `mcp.client.session.duration` for the session. mcp-tap sits where the host's bytes leave, so it
 * reports the host's view; requests the server sends are in the traces only. Cumulative, bounded in
 * series. Pure: the caller passes the time.
 */
import { ATTR, type Attributes, type Span } from './spans.js';

/** The conventions' bucket boundaries for both histograms, in seconds. */
export const DURATION_BOUNDS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export const METRIC_OPERATION = 'mcp.client.operation.duration';
export const METRIC_SESSION = 'mcp.client.session.duration';

/** One histogram series: its attributes and what it counted. */
export interface HistogramPoint {
  attributes: Attributes;
  count: number;
  sum: number;
  min: number;
  max: number;
  /** One more than DURATION_BOUNDS: the last counts values above the last bound. */
  buckets: number[];
}

/** One metric as exported: all its series, cumulative from `start`. */
export interface HistogramMetric {
  name: string;
  description: string;
  unit: 's';
  start: number;
  points: HistogramPoint[];
}

/** Series per metric at most; past it the OTel SDKs' overflow series takes the rest. */
const MAX_SERIES = 1000;
const OVERFLOW: Attributes = { 'otel.metric.overflow': true };

/** Span attributes a series is keyed by (low cardinality: never ids, session ids or resource URIs). */
const OPERATION_KEYS = [ATTR.mcpMethodName, ATTR.genAiToolName, ATTR.genAiPromptName, ATTR.errorType, ATTR.mcpProtocolVersion, ATTR.networkTransport] as const;
const SESSION_KEYS = [ATTR.errorType, ATTR.mcpProtocolVersion, ATTR.networkTransport] as const;

class Histogram {
  private readonly series = new Map<string, HistogramPoint>();

  record(attributes: Attributes, seconds: number): void {
    const key = JSON.stringify(attributes);
    let p = this.series.get(key);
    if (p === undefined) {
      const overflow = this.series.size >= MAX_SERIES - 1;
      const k = overflow ? JSON.stringify(OVERFLOW) : key;
      p = this.series.get(k);
      if (p === undefined) {
        p = { attributes: overflow ? OVERFLOW : attributes, count: 0, sum: 0, min: Infinity, max: -Infinity, buckets: new Array<number>(DURATION_BOUNDS.length + 1).fill(0) };
        this.series.set(k, p);
      }
    }
    p.count++;
    p.sum += seconds;
    if (seconds < p.min) p.min = seconds;
    if (seconds > p.max) p.max = seconds;
    let i = 0;
    while (i < DURATION_BOUNDS.length && seconds > DURATION_BOUNDS[i]!) i++;
    p.buckets[i]!++;
  }

  points(): HistogramPoint[] {
    return [...this.series.values()].map((p) => ({ ...p, buckets: [...p.buckets] }));
  }
}

function pick(span: Span, keys: readonly string[]): Attributes {
  const out: Attributes = {};
  for (const k of keys) {
    const v = span.attributes[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Aggregates finished spans into the two histograms. */
export class DurationMetrics {
  private readonly operations = new Histogram();
  private readonly sessions = new Histogram();
  private recorded = 0;

  /** `start`: when the aggregation began (the cumulative series' start time), epoch ms. */
  constructor(private readonly start: number) {}

  /** A finished span: a request the client sent, or the session's root. */
  add(span: Span): void {
    const seconds = Math.max(0, span.end - span.start) / 1000;
    if (span.kind === 'client' && span.attributes[ATTR.mcpMethodName] !== undefined) this.operations.record(pick(span, OPERATION_KEYS), seconds);
    else if (span.kind === 'internal' && span.parentSpanId === undefined) this.sessions.record(pick(span, SESSION_KEYS), seconds);
    else return;
    this.recorded++;
  }

  /** Spans recorded so far (an exporter sends when the count moved). */
  get recordedCount(): number {
    return this.recorded;
  }

  /** Both histograms as they stand (the metrics with no series are left out). */
  collect(): HistogramMetric[] {
    const out: HistogramMetric[] = [];
    const ops = this.operations.points();
    if (ops.length > 0) out.push({ name: METRIC_OPERATION, description: 'The duration of the MCP request as observed on the client side of the wire, from the request until its answer.', unit: 's', start: this.start, points: ops });
    const sessions = this.sessions.points();
    if (sessions.length > 0) out.push({ name: METRIC_SESSION, description: 'The duration of the MCP session as observed on the client side of the wire.', unit: 's', start: this.start, points: sessions });
    return out;
  }
}
