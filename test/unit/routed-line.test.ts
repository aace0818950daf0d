/**
 * HTTP mode hands the session each client POST with its routing headers. A header naming 2026-07-28
 * holds the request to them whether or not its body carries `_meta` (a body without it takes the fast
 * path), and a header of an older revision holds nothing.
 */
import { describe, expect, it } from 'vitest';
import { harness, req } from './helpers/session-harness.js';
import type { RoutingHeaders } from '../../src/protocol/routing-headers.js';

function routed(body: unknown, routing: RoutingHeaders) {
  const h = harness();
  const data = Buffer.from(JSON.stringify(body));
  h.session.onRoutedLine({ bytes: data.length, data }, 1, routing);
  const rec = h.records.find((r) => r.kind === 'request')!;
  return (rec['notes'] as Array<{ code: string; text: string }> | undefined) ?? [];
}

describe('a POST with routing headers', () => {
  it('a 2026-07-28 header on a body without _meta: the version, the method and the name are each held to the body', () => {
    const notes = routed(req(1, 'tools/call', { name: 'get_weather', arguments: {} }), { protocolVersion: '2026-07-28', method: 'tools/list' });
    const mismatch = notes.find((n) => n.code === 'header-mismatch');
    expect(mismatch?.text).toBe(
      'routing headers disagree with the body: MCP-Protocol-Version "2026-07-28" but the body has no _meta protocolVersion; Mcp-Method "tools/list" does not match the body\'s method "tools/call"; no Mcp-Name header (required for tools/call; the body names "get_weather") (a 2026-07-28 server must refuse this with 400 and -32020 HeaderMismatch)',
    );
  });

  it('an older header (or none) on a body without _meta: nothing to hold it to', () => {
    for (const routing of [{ protocolVersion: '2025-11-25', method: 'tools/list' }, {}]) {
      const notes = routed(req(1, 'tools/call', { name: 'get_weather', arguments: {} }), routing);
      expect(notes.map((n) => n.code)).not.toContain('header-mismatch');
    }
  });
});
