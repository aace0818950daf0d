/** The resource and scope every span of mcp-tap carries (export file and live alike). */
import { VERSION } from '../version.js';
import type { SpanOrigin } from './otlp-json.js';

export function originFor(serviceName: string, extra: Record<string, string> = {}): SpanOrigin {
  return {
    resource: {
      ...extra,
      'service.name': serviceName,
      'telemetry.sdk.name': 'mcp-tap',
      'telemetry.sdk.language': 'nodejs',
      'telemetry.sdk.version': VERSION,
    },
    scope: { name: 'mcp-tap', version: VERSION },
  };
}
