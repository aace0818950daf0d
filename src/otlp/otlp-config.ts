/**
 * Where and how live spans go: `--otlp [endpoint]` plus the standard OTEL_EXPORTER_OTLP_* variables.
 * Pure: a function of the flag and the environment.
 */
import { UsageError } from '../errors.js';

export type OtlpProtocol = 'http/json' | 'http/protobuf';

export interface OtlpConfig {
  /** The full traces URL (…/v1/traces). */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs: number;
  serviceName: string;
  /** Further resource attributes from OTEL_RESOURCE_ATTRIBUTES. */
  resource: Record<string, string>;
  /** The duration histograms (metrics.ts); null when OTEL_METRICS_EXPORTER=none. */
  metrics: MetricsConfig | null;
}

/** Where and how often the duration histograms go. */
export interface MetricsConfig {
  /** The full metrics URL (…/v1/metrics). */
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** OTEL_METRIC_EXPORT_INTERVAL (default 60 s); the histograms are also sent when the session ends. */
  intervalMs: number;
}

const DEFAULT_BASE = 'http://localhost:4318';

/** `k=v,k2=v2` with percent-encoded values (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
export function parseKeyValueList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as written
    }
    if (key) out[key] = value;
  }
  return out;
}

function checkUrl(url: string, from: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${from} is not a URL: ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${from} must be an http:// or https:// URL, got ${JSON.stringify(url)}`);
  return u.toString();
}

/** A base URL (the collector) → its traces URL, as the OTel spec appends `v1/traces`. */
export function tracesUrl(base: string): string {
  return base.endsWith('/') ? `${base}v1/traces` : `${base}/v1/traces`;
}

/**
 * `flag`: the value of `--otlp` (null: given without one). It names the collector (`http://host:4318`,
 * `v1/traces` appended) or, with a path, the exact traces URL. Without it the variables decide:
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`.
 */
export function resolveOtlpConfig(flag: string | null, env: NodeJS.ProcessEnv, serverName: string): OtlpConfig {
  let url: string;
  if (flag !== null) {
    const u = new URL(checkUrl(flag, '--otlp'));
    url = u.pathname === '/' ? tracesUrl(u.origin) : u.toString();
  } else if (env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']) {
    url = checkUrl(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'], 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  } else if (env['OTEL_EXPORTER_OTLP_ENDPOINT']) {
    url = tracesUrl(checkUrl(env['OTEL_EXPORTER_OTLP_ENDPOINT'], 'OTEL_EXPORTER_OTLP_ENDPOINT'));
  } else {
    url = tracesUrl(DEFAULT_BASE);
  }
  const protocol = (env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] || env['OTEL_EXPORTER_OTLP_PROTOCOL'] || 'http/protobuf').trim();
  if (protocol !== 'http/json' && protocol !== 'http/protobuf') {
    throw new UsageError(`OTEL_EXPORTER_OTLP_PROTOCOL ${JSON.stringify(protocol)} is not supported: use http/protobuf or http/json`);
  }
  const headers = { ...parseKeyValueList(env['OTEL_EXPORTER_OTLP_HEADERS']), ...parseKeyValueList(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']) };
  const timeoutText = env['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT'] || env['OTEL_EXPORTER_OTLP_TIMEOUT'];
  const timeoutMs = timeoutText && /^\d+$/.test(timeoutText) && Number(timeoutText) > 0 ? Number(timeoutText) : 10_000;
  const resource = parseKeyValueList(env['OTEL_RESOURCE_ATTRIBUTES']);
  const serviceName = env['OTEL_SERVICE_NAME'] || resource['service.name'] || serverName;
  delete resource['service.name'];
  const metrics = resolveMetricsConfig(flag, url, env, protocol);
  return { url, protocol, headers, timeoutMs, serviceName, resource, metrics };
}

/**
 * The metrics URL beside the traces one: OTEL_EXPORTER_OTLP_METRICS_ENDPOINT as is; else a traces URL
 * ending in `v1/traces` gets `v1/metrics` in its place, and any other goes to its collector's
 * `/v1/metrics`. OTEL_METRICS_EXPORTER=none turns the metrics off.
 */
function resolveMetricsConfig(flag: string | null, tracesUrlText: string, env: NodeJS.ProcessEnv, tracesProtocol: OtlpProtocol): MetricsConfig | null {
  if ((env['OTEL_METRICS_EXPORTER'] ?? '').trim() === 'none') return null;
  let url: string;
  if (flag === null && env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']) url = checkUrl(env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'], 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT');
  else if (flag === null && !env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] && env['OTEL_EXPORTER_OTLP_ENDPOINT']) url = metricsUrl(checkUrl(env['OTEL_EXPORTER_OTLP_ENDPOINT'], 'OTEL_EXPORTER_OTLP_ENDPOINT'));
  else {
    const u = new URL(tracesUrlText);
    url = u.pathname.endsWith('/v1/traces') ? `${u.origin}${u.pathname.slice(0, -'traces'.length)}metrics${u.search}` : metricsUrl(u.origin);
  }
  const p = (env['OTEL_EXPORTER_OTLP_METRICS_PROTOCOL'] ?? '').trim();
  const protocol: OtlpProtocol = p === 'http/json' || p === 'http/protobuf' ? p : tracesProtocol;
  const headers = { ...parseKeyValueList(env['OTEL_EXPORTER_OTLP_HEADERS']), ...parseKeyValueList(env['OTEL_EXPORTER_OTLP_METRICS_HEADERS']) };
  const every = env['OTEL_METRIC_EXPORT_INTERVAL'];
  const intervalMs = every && /^\d+$/.test(every) && Number(every) > 0 ? Number(every) : 60_000;
  return { url, protocol, headers, intervalMs };
}

/** A base URL (the collector) → its metrics URL. */
function metricsUrl(base: string): string {
  return base.endsWith('/') ? `${base}v1/metrics` : `${base}/v1/metrics`;
}
