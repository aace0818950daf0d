/**
 * `export --format otlp`: a session's records → one OTLP/JSON ExportTraceServiceRequest, the body a
 * collector's /v1/traces takes as is (`curl --data-binary @file -H 'content-type: application/json'`).
 */
import type { LogRecord } from '../log/record.js';
import type { Span } from './spans.js';
import { SessionSpans } from './session-spans.js';
import { traceRequestJson } from './otlp-json.js';
import { originFor } from './origin.js';
import { parseKeyValueList } from './otlp-config.js';

export interface OtlpExportOptions {
  content?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The request as JSON text chunks. A session's spans are held until its end (they are sorted by start). */
export async function* otlpChunks(records: AsyncIterable<LogRecord> | Iterable<LogRecord>, o: OtlpExportOptions = {}): AsyncGenerator<string> {
  const builder = new SessionSpans({ content: o.content === true });
  const spans: Span[] = [];
  let serverName = 'mcp-server';
  for await (const r of records) {
    if (r.kind === 'event' && r.event === 'start' && typeof r['name'] === 'string') serverName = r['name'];
    for (const s of builder.push(r)) spans.push(s);
  }
  for (const s of builder.finish(0)) spans.push(s);
  const env = o.env ?? {};
  const resource = parseKeyValueList(env['OTEL_RESOURCE_ATTRIBUTES']);
  const serviceName = env['OTEL_SERVICE_NAME'] || resource['service.name'] || serverName;
  delete resource['service.name'];
  // spans in start order, as a viewer lists them; one span per line, so the file diffs and greps well
  spans.sort((a, b) => a.start - b.start);
  const json = traceRequestJson(spans, originFor(serviceName, resource));
  const scope = (json['resourceSpans'] as { scopeSpans: { spans: unknown[] }[] }[])[0]!.scopeSpans[0]!;
  const list = scope.spans;
  scope.spans = [];
  const [head, tail] = JSON.stringify(json).split('"spans":[]') as [string, string];
  yield `${head}"spans":[`;
  for (let i = 0; i < list.length; i++) yield `${i === 0 ? '\n' : ',\n'}${JSON.stringify(list[i])}`;
  yield `\n]${tail}\n`;
}
