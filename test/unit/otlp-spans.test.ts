/**
 * Records → spans after the OTel MCP conventions: one span per request (name, kind, attributes, start at
 * the request, end at the answer), errors and tool errors, progress as events, traceparent joining,
 * unanswered requests, the session root, batches, and the same ids for the same session.
 */
import { describe, expect, it } from 'vitest';
import { SpanBuilder, traceparentOf, type Span } from '../../src/otlp/spans.js';
import type { LogRecord } from '../../src/log/record.js';

const S = 'mhx2k9q1-5f3a9c2e';
let seq = 0;
function rec(fields: Partial<LogRecord> & Pick<LogRecord, 'from' | 'kind'>): LogRecord {
  seq++;
  return { v: 1, time: 1000 + seq, session: S, seq, ...fields } as LogRecord;
}

function session(): { records: LogRecord[]; spans: Span[] } {
  seq = 0;
  const records = [
    rec({ from: 'proxy', kind: 'event', event: 'start', name: 'everything', command: 'node', args: ['index.js', 'stdio'] }),
    rec({ from: 'client', kind: 'request', id: 0, method: 'initialize', msg: { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} } }),
    rec({ from: 'server', kind: 'response', id: 0, method: 'initialize', reqSeq: 2, msg: { jsonrpc: '2.0', id: 0, result: {} } }),
    rec({ from: 'proxy', kind: 'event', event: 'lifecycle', era: 'handshake', protocolVersion: '2025-11-25' }),
    // seq 5: a tool call with progress, seq 6 progress, seq 7 its answer
    rec({ from: 'client', kind: 'request', id: 'a', method: 'tools/call', target: 'get-sum', msg: { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get-sum', arguments: { a: 1 }, _meta: { progressToken: 1 } } } }),
    rec({ from: 'server', kind: 'notification', method: 'notifications/progress', reqSeq: 5, msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1, total: 2 } } }),
    rec({ from: 'server', kind: 'response', id: 'a', method: 'tools/call', target: 'get-sum', reqSeq: 5, isError: true, msg: { jsonrpc: '2.0', id: 'a', result: { content: [], isError: true } } }),
    // seq 8/9: a resource read that fails
    rec({ from: 'client', kind: 'request', id: 3, method: 'resources/read', target: 'file:///x', msg: { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///x' } } }),
    rec({ from: 'server', kind: 'error', id: 3, method: 'resources/read', target: 'file:///x', reqSeq: 8, msg: { jsonrpc: '2.0', id: 3, error: { code: -32002, message: 'Resource not found' } } }),
    // seq 10/11: the server asks the client
    rec({ from: 'server', kind: 'request', id: 0, method: 'roots/list', msg: { jsonrpc: '2.0', id: 0, method: 'roots/list' } }),
    rec({ from: 'client', kind: 'response', id: 0, method: 'roots/list', reqSeq: 10, msg: { jsonrpc: '2.0', id: 0, result: { roots: [] } } }),
    // seq 12: a prompt in the host's trace; seq 13: never answered
    rec({
      from: 'client',
      kind: 'request',
      id: 5,
      method: 'prompts/get',
      target: 'greet',
      msg: { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'greet', _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } },
    }),
    rec({ from: 'client', kind: 'request', id: 6, method: 'tools/list', msg: { jsonrpc: '2.0', id: 6, method: 'tools/list' } }),
    rec({ from: 'server', kind: 'response', id: 5, method: 'prompts/get', target: 'greet', reqSeq: 12, msg: { jsonrpc: '2.0', id: 5, result: { messages: [] } } }),
    rec({ from: 'proxy', kind: 'event', event: 'exit', code: 0, signal: null }),
    rec({ from: 'proxy', kind: 'event', event: 'end', pending: [{ from: 'client', id: 6, method: 'tools/list', seq: 13 }], pendingCount: 1, exitCode: 0 }),
  ];
  const b = new SpanBuilder();
  const spans = records.flatMap((r) => b.push(r));
  return { records, spans };
}

const byName = (spans: Span[], name: string): Span => {
  const s = spans.find((x) => x.name === name);
  if (!s) throw new Error(`no span ${name} in ${spans.map((x) => x.name).join(', ')}`);
  return s;
};

describe('SpanBuilder', () => {
  it('makes one span per request plus one root, each emitted once when it ends', () => {
    const { spans } = session();
    expect(spans.map((s) => s.name)).toEqual([
      'initialize',
      'tools/call get-sum',
      'resources/read file:///x',
      'roots/list',
      'prompts/get greet',
      'tools/list',
      'mcp-tap everything',
    ]);
  });

  it('names, kinds, times and attributes follow the MCP conventions', () => {
    const { spans } = session();
    const call = byName(spans, 'tools/call get-sum');
    expect(call.kind).toBe('client');
    expect(call.start).toBe(1005);
    expect(call.end).toBe(1007);
    expect(call.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'mcp.session.id': S,
      'network.transport': 'pipe',
      'jsonrpc.request.id': 'a',
      'mcp.protocol.version': '2025-11-25',
      'gen_ai.tool.name': 'get-sum',
      'gen_ai.operation.name': 'execute_tool',
      'error.type': 'tool_error',
    });
    expect(call.status.code).toBe('error');
    expect(byName(spans, 'roots/list').kind).toBe('server');
    expect(byName(spans, 'prompts/get greet').attributes['gen_ai.prompt.name']).toBe('greet');
    expect(byName(spans, 'initialize').attributes['mcp.protocol.version']).toBeUndefined();
  });

  it('a JSON-RPC error sets rpc.response.status_code, error.type and status ERROR', () => {
    const read = byName(session().spans, 'resources/read file:///x');
    expect(read.attributes['mcp.resource.uri']).toBe('file:///x');
    expect(read.attributes['rpc.response.status_code']).toBe('-32002');
    expect(read.attributes['error.type']).toBe('-32002');
    expect(read.status).toEqual({ code: 'error', message: 'Resource not found' });
    expect(byName(session().spans, 'initialize').status).toEqual({ code: 'unset' });
  });

  it('progress becomes a span event at its time', () => {
    const call = byName(session().spans, 'tools/call get-sum');
    expect(call.events).toEqual([{ name: 'notifications/progress', time: 1006, attributes: { 'mcp_tap.progress.progress': 1, 'mcp_tap.progress.total': 2 } }]);
  });

  it('request spans are children of the session root; a traceparent puts the span into the host trace, linked to the root', () => {
    const { spans } = session();
    const root = byName(spans, 'mcp-tap everything');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.kind).toBe('internal');
    expect(root.start).toBe(1001);
    expect(root.end).toBe(1016);
    for (const s of spans.filter((x) => x !== root && x.name !== 'prompts/get greet')) {
      expect(s.traceId).toBe(root.traceId);
      expect(s.parentSpanId).toBe(root.spanId);
    }
    const joined = byName(spans, 'prompts/get greet');
    expect(joined.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(joined.parentSpanId).toBe('b7ad6b7169203331');
    expect(joined.links).toEqual([{ traceId: root.traceId, spanId: root.spanId }]);
  });

  it('a request never answered ends at the session end with error.type unanswered', () => {
    const list = byName(session().spans, 'tools/list');
    expect(list.end).toBe(1016);
    expect(list.attributes['error.type']).toBe('unanswered');
    expect(list.status.code).toBe('error');
  });

  it('the root carries the server command and exit code', () => {
    const root = byName(session().spans, 'mcp-tap everything');
    expect(root.attributes['process.command']).toBe('node');
    expect(root.attributes['process.command_args']).toEqual(['index.js', 'stdio']);
    expect(root.attributes['process.exit.code']).toBe(0);
    expect(root.status.code).toBe('unset');
  });

  it('ids are 16/8 bytes of hex, distinct, and the same for the same session', () => {
    const a = session().spans;
    const b = session().spans;
    expect(a.map((s) => s.spanId)).toEqual(b.map((s) => s.spanId));
    for (const s of a) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(a.map((s) => s.spanId)).size).toBe(a.length);
  });

  it('batch elements get their own spans, paired by id', () => {
    seq = 0;
    const b = new SpanBuilder();
    const out = [
      rec({ from: 'proxy', kind: 'event', event: 'start', name: 'x' }),
      rec({ from: 'client', kind: 'batch', items: [{ kind: 'request', id: 6, method: 'tools/list' }, { kind: 'request', id: 7, method: 'prompts/list' }] }),
      rec({ from: 'server', kind: 'batch', items: [{ kind: 'response', id: 7, method: 'prompts/list', reqSeq: 2 }, { kind: 'error', id: 6, method: 'tools/list', reqSeq: 2 }] }),
    ].flatMap((r) => b.push(r));
    expect(out.map((s) => [s.name, s.start, s.end, s.status.code])).toEqual([
      ['prompts/list', 1002, 1003, 'unset'],
      ['tools/list', 1002, 1003, 'error'],
    ]);
  });

  it('past its bound the oldest open request ends as unanswered, at once, and later answers still pair', () => {
    seq = 0;
    const b = new SpanBuilder({ maxOpen: 2 });
    const req = (id: number) => rec({ from: 'client', kind: 'request', id, method: 'ping' });
    const out = [rec({ from: 'proxy', kind: 'event', event: 'start', name: 'x' }), req(1), req(2), req(3)].flatMap((r) => b.push(r));
    expect(out.map((s) => [s.attributes['jsonrpc.request.id'], s.end, s.attributes['error.type']])).toEqual([['1', 1004, 'unanswered']]);
    const answered = b.push(rec({ from: 'server', kind: 'response', id: 3, method: 'ping', reqSeq: 4 }));
    expect(answered.map((s) => [s.attributes['jsonrpc.request.id'], s.status.code])).toEqual([['3', 'unset']]);
    expect(b.push(req(4)).length).toBe(0); // 2 and 4 open: nothing evicted
    expect(b.push(req(5)).map((s) => s.attributes['jsonrpc.request.id'])).toEqual(['2']);
  });

  it('tool arguments and results appear only with content on', () => {
    const { records } = session();
    const off = records.flatMap((r) => new SpanBuilder().push(r));
    expect(JSON.stringify(off)).not.toContain('gen_ai.tool.call');
    seq = 0;
    const b = new SpanBuilder({ content: true });
    const on = [
      rec({ from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'echo', msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } } }),
      rec({ from: 'server', kind: 'response', id: 1, method: 'tools/call', target: 'echo', reqSeq: 1, msg: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'Echo: hi' }] } } }),
    ].flatMap((r) => b.push(r));
    expect(on[0]!.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"hi"}');
    expect(on[0]!.attributes['gen_ai.tool.call.result']).toBe('{"content":[{"type":"text","text":"Echo: hi"}]}');
  });
});

describe('traceparentOf', () => {
  it('accepts a W3C traceparent and refuses malformed or all-zero ids', () => {
    const m = (tp: unknown) => ({ params: { _meta: { traceparent: tp } } });
    expect(traceparentOf(m('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'))).toEqual({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
    expect(traceparentOf(m('00-00000000000000000000000000000000-b7ad6b7169203331-01'))).toBeNull();
    expect(traceparentOf(m('00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01'))).toBeNull();
    expect(traceparentOf(m('0af7651916cd43dd8448eb211c80319c'))).toBeNull();
    expect(traceparentOf(m(42))).toBeNull();
    expect(traceparentOf({ params: {} })).toBeNull();
  });
});
