/** Where live spans go: the --otlp value and the standard OTEL_EXPORTER_OTLP_* variables, by precedence. */
import { describe, expect, it } from 'vitest';
import { parseKeyValueList, resolveOtlpConfig } from '../../src/otlp/otlp-config.js';

describe('resolveOtlpConfig', () => {
  it('defaults to the local collector over http/protobuf, named after the server', () => {
    expect(resolveOtlpConfig(null, {}, 'everything')).toEqual({
      url: 'http://localhost:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      serviceName: 'everything',
      resource: {},
      metrics: { url: 'http://localhost:4318/v1/metrics', protocol: 'http/protobuf', headers: {}, intervalMs: 60_000 },
    });
  });

  it('sends the duration histograms beside the traces: v1/metrics in place of v1/traces, the METRICS variables first, off with OTEL_METRICS_EXPORTER=none', () => {
    const metrics = (flag: string | null, env: NodeJS.ProcessEnv) => resolveOtlpConfig(flag, env, 'x').metrics;
    expect(metrics('http://flag:4318', {})?.url).toBe('http://flag:4318/v1/metrics');
    expect(metrics('http://flag:4318/otlp/v1/traces', {})?.url).toBe('http://flag:4318/otlp/v1/metrics');
    expect(metrics('http://flag:9/custom/path', {})?.url).toBe('http://flag:9/v1/metrics');
    expect(metrics(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/base' })?.url).toBe('http://c:4318/base/v1/metrics');
    expect(metrics(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://m/x' })?.url).toBe('https://m/x');
    expect(metrics(null, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t/v1/traces' })?.url).toBe('https://t/v1/metrics');
    const c = metrics(null, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_HEADERS: 'a=1', OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'b=2', OTEL_METRIC_EXPORT_INTERVAL: '5000' });
    expect(c).toEqual({ url: 'http://localhost:4318/v1/metrics', protocol: 'http/protobuf', headers: { a: '1', b: '2' }, intervalMs: 5000 });
    expect(metrics(null, { OTEL_METRICS_EXPORTER: 'none' })).toBeNull();
  });

  it('appends v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT, takes the TRACES endpoint as is, and the flag before both', () => {
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }, 'x').url).toBe('http://c:4318/v1/traces');
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/base' }, 'x').url).toBe('http://c:4318/base/v1/traces');
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t/x' }, 'x').url).toBe('https://t/x');
    expect(resolveOtlpConfig('http://flag:4318', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t/x' }, 'x').url).toBe('http://flag:4318/v1/traces');
    expect(resolveOtlpConfig('http://flag:9/custom/path', {}, 'x').url).toBe('http://flag:9/custom/path');
  });

  it('reads protocol, headers (percent-decoded, traces-specific last), timeout and the service name', () => {
    const c = resolveOtlpConfig(
      null,
      {
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-a=1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-a=2',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=fromres,team=core',
      },
      'x',
    );
    expect(c.protocol).toBe('http/json');
    expect(c.headers).toEqual({ authorization: 'Bearer abc', 'x-a': '2' });
    expect(c.timeoutMs).toBe(2500);
    expect(c.serviceName).toBe('fromres');
    expect(c.resource).toEqual({ team: 'core' });
    expect(resolveOtlpConfig(null, { OTEL_SERVICE_NAME: 'svc', OTEL_RESOURCE_ATTRIBUTES: 'service.name=fromres' }, 'x').serviceName).toBe('svc');
  });

  it('takes the traces-specific protocol before the general one, and the default timeout for 0 or words', () => {
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }, 'x').protocol).toBe('http/json');
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }, 'x').protocol).toBe('http/protobuf');
    expect(resolveOtlpConfig(null, {}, 'x').protocol).toBe('http/protobuf');
    for (const t of ['0', '-5', '2s', '']) expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_TIMEOUT: t }, 'x').timeoutMs, t).toBe(10_000);
    expect(resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_TIMEOUT: '9000', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '700' }, 'x').timeoutMs).toBe(700);
  });

  it('refuses grpc, unknown protocols and endpoints that are not http(s) URLs, as usage errors', () => {
    expect(() => resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'x')).toThrow(/grpc.*not supported/);
    expect(() => resolveOtlpConfig('ftp://x', {}, 'x')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => resolveOtlpConfig(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }, 'x')).toThrow(/not a URL/);
  });

  it('parseKeyValueList skips malformed parts', () => {
    expect(parseKeyValueList('a=1,,=2,b,c=%zz')).toEqual({ a: '1', c: '%zz' });
  });
});
