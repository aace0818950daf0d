/**
 * The HAR builder (issue 33 §1) on hand-made records: one entry per exchange record with the messages
 * of its exchange as bodies, an SSE response as its events with their times, timings that add up, a
 * compressed body's sizes, exchanges the log never closed, the per-entry text bound; every document
 * valid against the HAR 1.2 schema written from the spec.
 */
import { describe, expect, it } from 'vitest';
import { HarBuilder, HAR_MAX_TEXT } from '../../src/transcript/har.js';
import type { LogRecord } from '../../src/log/record.js';
import { harProblems, type Har } from '../helpers/har.js';

const T0 = 1796032600000;
let seq = 0;
const rec = (r: Record<string, unknown>): LogRecord => ({ v: 1, session: 's1', seq: ++seq, level: 30, ...r }) as LogRecord;
const start = rec({ time: T0, from: 'proxy', kind: 'event', event: 'start', upstream: 'https://api.example.com/mcp?key=[REDACTED:query]', run: 'r1' });

function exchange(x: number, started: number, method: string, path: string, status: number, reqType: string | null, resType: string | null, extra: Record<string, unknown> = {}): LogRecord {
  return rec({
    time: started + 20,
    from: 'proxy',
    kind: 'event',
    event: 'exchange',
    http: { method, path, status, x },
    started,
    timing: { request: 1.5, head: 10.25, end: 20 },
    httpVersion: 'HTTP/1.1',
    request: { headers: [['host', '127.0.0.1:8931'], ...(reqType ? [['content-type', reqType]] : [])], bytes: reqType ? 40 : 0 },
    response: { statusText: status === 202 ? 'Accepted' : 'OK', headers: resType ? [['content-type', resType]] : [], bytes: 100 },
    ...extra,
  });
}

function build(records: LogRecord[]): { doc: Har; text: string } {
  const b = new HarBuilder({ creator: { name: 'mcp-tap', version: '9.9.9' }, redacted: true });
  let text = b.head();
  for (const r of records) for (const e of b.push(r)) text += e;
  for (const e of b.finish()) text += e;
  return { doc: JSON.parse(text) as Har, text };
}

describe('HAR from exchange records', () => {
  it('a JSON answer, an SSE answer with its events and their times, a 202, a GET stream', () => {
    const { doc } = build([
      start,
      rec({ time: T0 + 1, from: 'client', kind: 'request', id: 1, method: 'tools/call', http: { method: 'POST', path: '/mcp', x: 1, stream: 'post' }, msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } } }),
      rec({ time: T0 + 11, from: 'server', kind: 'notification', method: 'notifications/progress', http: { method: 'POST', path: '/mcp', status: 200, x: 1, stream: 'post', eventId: 'e1' }, msg: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } } }),
      rec({ time: T0 + 15, from: 'server', kind: 'response', id: 1, http: { method: 'POST', path: '/mcp', status: 200, x: 1, stream: 'post', eventId: 'e2' }, msg: { jsonrpc: '2.0', id: 1, result: {} } }),
      exchange(1, T0, 'POST', '/mcp', 200, 'application/json', 'text/event-stream'),
      rec({ time: T0 + 30, from: 'client', kind: 'notification', method: 'notifications/initialized', http: { method: 'POST', path: '/mcp', x: 2, stream: 'post' }, msg: { jsonrpc: '2.0', method: 'notifications/initialized' } }),
      rec({ time: T0 + 31, from: 'proxy', kind: 'event', event: 'http', http: { method: 'POST', path: '/mcp', status: 202, x: 2 } }),
      exchange(2, T0 + 29, 'POST', '/mcp', 202, 'application/json', null),
      rec({ time: T0 + 41, from: 'client', kind: 'request', id: 2, method: 'tools/list', http: { method: 'POST', path: '/mcp', x: 3, stream: 'post' }, msg: { jsonrpc: '2.0', id: 2, method: 'tools/list' } }),
      rec({ time: T0 + 45, from: 'server', kind: 'response', id: 2, http: { method: 'POST', path: '/mcp', status: 200, x: 3, stream: 'post' }, msg: { jsonrpc: '2.0', id: 2, result: { tools: [] } } }),
      exchange(3, T0 + 40, 'POST', '/mcp', 200, 'application/json', 'application/json', { query: '?a=[REDACTED:query]&b' }),
    ]);
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.version).toBe('1.2');
    expect(doc.log.creator).toEqual({ name: 'mcp-tap', version: '9.9.9' });
    const [sse, accepted, json] = doc.log.entries as [Har['log']['entries'][number], Har['log']['entries'][number], Har['log']['entries'][number]];
    expect(sse.startedDateTime).toBe(new Date(T0).toISOString());
    expect(sse.timings).toEqual({ send: 1.5, wait: 8.75, receive: 9.75 });
    expect(sse.time).toBe(20);
    expect(sse.request.url).toBe('https://api.example.com/mcp');
    expect(JSON.parse(sse.request.postData!.text)).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow' } });
    expect(sse.response.content.text).toBe(
      'id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\nid: e2\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    );
    expect(sse.response.content._sseEvents).toEqual([
      { time: new Date(T0 + 11).toISOString(), ms: 11, seq: 3, id: 'e1' },
      { time: new Date(T0 + 15).toISOString(), ms: 15, seq: 4, id: 'e2' },
    ]);
    expect(accepted.response).toMatchObject({ status: 202, statusText: 'Accepted', content: { size: 100, mimeType: '' } });
    expect(accepted.response.content.text).toBeUndefined();
    expect(json.request.url).toBe('https://api.example.com/mcp?a=[REDACTED:query]&b');
    expect(json.request.queryString).toEqual([
      { name: 'a', value: '[REDACTED:query]' },
      { name: 'b', value: '' },
    ]);
    expect(JSON.parse(json.response.content.text!)).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    expect(json._mcpTap).toEqual({ session: 's1', x: 3 });
  });

  it('a compressed body: content size decoded, compression what it saved; a body not decoded says why', () => {
    const { doc } = build([
      start,
      rec({ time: T0 + 5, from: 'server', kind: 'response', id: 1, http: { method: 'POST', path: '/mcp', status: 200, x: 1 }, msg: { jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(500) } } }),
      exchange(1, T0, 'POST', '/mcp', 200, null, 'application/json', { response: { statusText: 'OK', headers: [['content-type', 'application/json'], ['content-encoding', 'gzip']], bytes: 60 } }),
      exchange(2, T0 + 50, 'POST', '/token', 200, 'application/x-www-form-urlencoded', 'application/json', { notDecoded: 'not decoded: an OAuth token exchange (bodies outside MCP are never logged)' }),
    ]);
    expect(harProblems(doc)).toEqual([]);
    const [gz, token] = doc.log.entries as [Har['log']['entries'][number], Har['log']['entries'][number]];
    const size = Buffer.byteLength(gz.response.content.text!);
    expect(gz.response.content).toMatchObject({ size, compression: size - 60 });
    expect(token.comment).toBe('not decoded: an OAuth token exchange (bodies outside MCP are never logged)');
    expect(token.request.postData).toEqual({ mimeType: 'application/x-www-form-urlencoded', text: '', comment: 'not in the log (not decoded, or not MCP)' });
    expect(token.response.content.text).toBeUndefined();
  });

  it('an exchange the log never closed is an entry of its messages; the body text per entry is bounded', () => {
    const big = 'y'.repeat(HAR_MAX_TEXT / 4);
    const records: LogRecord[] = [start];
    for (let i = 0; i < 6; i++) records.push(rec({ time: T0 + 10 + i, from: 'server', kind: 'notification', method: 'notifications/message', http: { method: 'GET', path: '/mcp', status: 200, x: 7, stream: 'get', eventId: `g${i}` }, msg: { jsonrpc: '2.0', method: 'notifications/message', params: { data: big } } }));
    const { doc } = build(records);
    expect(harProblems(doc)).toEqual([]);
    const [open] = doc.log.entries as [Har['log']['entries'][number]];
    expect(open._mcpTap).toEqual({ session: 's1', x: 7, incomplete: true });
    expect(open.comment).toMatch(/the log ends before this exchange did/);
    expect(open.request.method).toBe('GET');
    expect(open.response.status).toBe(200);
    expect(open.response.content.text!.length).toBeLessThan(HAR_MAX_TEXT + 1000);
    expect((open.response.content as { comment?: string }).comment).toMatch(/^3 more messages not kept here/);
  });

  it('an empty run is a valid document with no entries', () => {
    const { doc, text } = build([start]);
    expect(harProblems(doc)).toEqual([]);
    expect(doc.log.entries).toEqual([]);
    expect(text.endsWith('\n')).toBe(true);
  });
});
