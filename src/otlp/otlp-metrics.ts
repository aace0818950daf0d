/**
 * Duration histograms (metrics.ts) → an OTLP `ExportMetricsServiceRequest`, as OTLP/JSON or protobuf
 * (opentelemetry/proto metrics/v1; field numbers cited below). Cumulative temporality. Pure. A test
 * decodes the protobuf with the receiver's own protobufjs and the official .proto files.
 */
import { DURATION_BOUNDS, type HistogramMetric } from './metrics.js';
import { keyValues as jsonKeyValues, unixNanos, type SpanOrigin } from './otlp-json.js';
import { keyValues, micros, Writer } from './otlp-proto.js';

/** AggregationTemporality CUMULATIVE. */
const CUMULATIVE = 2;

/** The request as an object ready for JSON.stringify (64-bit integers as strings, as OTLP/JSON has them). */
export function metricsRequestJson(metrics: readonly HistogramMetric[], origin: SpanOrigin, now: number): Record<string, unknown> {
  return {
    resourceMetrics: [
      {
        resource: { attributes: jsonKeyValues(origin.resource) },
        scopeMetrics: [
          {
            scope: { name: origin.scope.name, version: origin.scope.version },
            metrics: metrics.map((m) => ({
              name: m.name,
              description: m.description,
              unit: m.unit,
              histogram: {
                aggregationTemporality: CUMULATIVE,
                dataPoints: m.points.map((p) => ({
                  attributes: jsonKeyValues(p.attributes),
                  startTimeUnixNano: unixNanos(m.start),
                  timeUnixNano: unixNanos(now),
                  count: String(p.count),
                  sum: p.sum,
                  bucketCounts: p.buckets.map(String),
                  explicitBounds: DURATION_BOUNDS,
                  min: p.min,
                  max: p.max,
                })),
              },
            })),
          },
        ],
      },
    ],
  };
}

/**
 * ExportMetricsServiceRequest { resource_metrics 1 }; ResourceMetrics { resource 1, scope_metrics 2 };
 * ScopeMetrics { scope 1, metrics 2 }; Metric { name 1, description 2, unit 3, histogram 9 };
 * Histogram { data_points 1, aggregation_temporality 2 }; HistogramDataPoint { attributes 9,
 * start_time_unix_nano 2, time_unix_nano 3, count 4, sum 5, bucket_counts 6, explicit_bounds 7, min 11,
 * max 12 }.
 */
export function encodeMetricsRequest(metrics: readonly HistogramMetric[], origin: SpanOrigin, now: number): Buffer {
  const w = new Writer();
  w.fork(1);
  w.fork(1);
  keyValues(w, 1, origin.resource);
  w.close();
  w.fork(2);
  w.fork(1).string(1, origin.scope.name).string(2, origin.scope.version).close();
  for (const m of metrics) {
    w.fork(2).string(1, m.name).string(2, m.description).string(3, m.unit);
    w.fork(9);
    for (const p of m.points) {
      w.fork(1);
      keyValues(w, 9, p.attributes);
      w.nanos(2, micros(m.start)).nanos(3, micros(now)).fixed64(4, p.count).double(5, p.sum);
      w.packedFixed64(6, p.buckets).packedDouble(7, DURATION_BOUNDS).double(11, p.min).double(12, p.max);
      w.close();
    }
    w.int(2, CUMULATIVE);
    w.close();
    w.close();
  }
  w.close();
  w.close();
  return w.done();
}
