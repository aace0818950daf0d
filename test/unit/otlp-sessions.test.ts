/**
 * Spans of HTTP mode's interleaved sessions (issue 33 §4): one builder per session, so a record of
 * another session does not close the spans of the one before; transport `tcp` and the upstream on the
 * root; a request joins the caller's trace by its POST's traceparent header, and by `_meta` first.
 */
import { describe, expect, it } from 'vitest';
import { SessionSpans } from '../../src/otlp/session-spans.js';
import type { Span } from '../../src/otlp/spans.js';
import type { LogRecord } from '../../src/log/record.js';

let seq = 0;
const rec = (session: string, time: number, fields: Record<string, unknown>): LogRecord => ({ v: 1, time, session, seq: ++seq, ...fields }) as LogRecord;
const HEADER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const META = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('SessionSpans', () => {
  it('keeps interleaved sessions apart, each closed by its own end record', () => {
    const b = new SessionSpans();
    const out: Span[] = [];
    const push = (r: LogRecord) => out.push(...b.push(r));
    push(rec('A', 1, { from: 'proxy', kind: 'event', event: 'start', name: 'api', upstream: 'https://api.example.com/mcp' }));
    push(rec('B', 2, { from: 'proxy', kind: 'event', event: 'start', name: 'api', upstream: 'https://api.example.com/mcp' }));
    const qa = rec('A', 3, { from: 'client', kind: 'request', id: 1, method: 'tools/list', http: { method: 'POST', path: '/mcp', traceparent: HEADER } });
    const qb = rec('B', 4, { from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'echo', http: { method: 'POST', path: '/mcp', traceparent: HEADER }, msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', _meta: { traceparent: META } } } });
    push(qa);
    push(qb);
    push(rec('A', 5, { from: 'server', kind: 'response', id: 1, reqSeq: qa.seq }));
    push(rec('B', 6, { from: 'server', kind: 'response', id: 1, reqSeq: qb.seq }));
    expect(out.map((s) => s.name)).toEqual(['tools/list', 'tools/call echo']);
    push(rec('A', 7, { from: 'proxy', kind: 'event', event: 'end', pending: [] }));
    expect(out.map((s) => s.name)).toEqual(['tools/list', 'tools/call echo', 'mcp-tap api']);
    const [list, echo, rootA] = out as [Span, Span, Span];
    expect([list.traceId, list.parentSpanId]).toEqual(['4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7']);
    expect([echo.traceId, echo.parentSpanId]).toEqual(['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331']);
    expect(list.attributes['network.transport']).toBe('tcp');
    expect(rootA.attributes).toMatchObject({ 'network.transport': 'tcp', 'mcp_tap.upstream': 'https://api.example.com/mcp', 'mcp.session.id': 'A' });
    expect(rootA.end).toBe(7);
    // B is still open; the end of the stream closes it
    const rest = b.finish(9);
    expect(rest.map((s) => [s.name, s.attributes['mcp.session.id'], s.end])).toEqual([['mcp-tap api', 'B', 9]]);
  });

  it('a stdio session is unchanged: pipe, and no header to join by', () => {
    const b = new SessionSpans();
    b.push(rec('S', 1, { from: 'proxy', kind: 'event', event: 'start', name: 'x', command: 'node', args: [] }));
    const q = rec('S', 2, { from: 'client', kind: 'request', id: 1, method: 'ping', http: { method: 'POST', path: '/', traceparent: HEADER } });
    b.push(q);
    const [span] = b.push(rec('S', 3, { from: 'server', kind: 'response', id: 1, reqSeq: q.seq })) as [Span];
    expect(span.attributes['network.transport']).toBe('pipe');
    expect(span.traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});
