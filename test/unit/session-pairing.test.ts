import { describe, expect, it } from 'vitest';
import { err, handshake, harness, note, req, res } from './helpers/session-harness.js';

describe('pairing', () => {
  it('pairs client requests with server answers: method, reqSeq, ms, target', () => {
    const h = handshake(harness());
    const r = h.send('client', req(5, 'tools/call', { name: 'echo', arguments: {} }), 100);
    const a = h.send('server', res(5, { content: [] }), 112.5);
    expect(r).toMatchObject({ kind: 'request', id: 5, method: 'tools/call', target: 'echo' });
    expect(a).toMatchObject({ kind: 'response', id: 5, method: 'tools/call', target: 'echo', reqSeq: r.seq, ms: 12.5 });
    expect(a.notes).toBeUndefined();
    expect(h.finish().pending).toEqual([]);
  });

  it('pairs server→client requests with the client answers', () => {
    const h = handshake(harness());
    const r = h.send('server', req(0, 'roots/list'));
    const a = h.send('client', res(0, { roots: [] }));
    expect(a).toMatchObject({ from: 'client', kind: 'response', method: 'roots/list', reqSeq: r.seq });
    expect(h.codes()).toEqual([]);
  });

  it('keeps directions apart: the same id on both sides', () => {
    const h = handshake(harness());
    const c = h.send('client', req(1, 'tools/list'));
    const s = h.send('server', req(1, 'ping'));
    const cAns = h.send('client', res(1));
    const sAns = h.send('server', res(1, { tools: [] }));
    expect(cAns.reqSeq).toBe(s.seq);
    expect(cAns.method).toBe('ping');
    expect(sAns.reqSeq).toBe(c.seq);
    expect(sAns.method).toBe('tools/list');
    expect(h.codes()).toEqual([]);
  });

  it('compares ids with their type: 1 and "1" are different requests', () => {
    const h = handshake(harness());
    const n = h.send('client', req(1, 'tools/list'));
    const s = h.send('client', req('1', 'prompts/list'));
    const aS = h.send('server', res('1', { prompts: [] }));
    const aN = h.send('server', res(1, { tools: [] }));
    expect(aS).toMatchObject({ id: '1', method: 'prompts/list', reqSeq: s.seq });
    expect(aN).toMatchObject({ id: 1, method: 'tools/list', reqSeq: n.seq });
    expect(h.codes()).toEqual([]);
  });

  it('flags an answer to "1" when only 1 is pending (unknown-id)', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/list'));
    const a = h.send('server', res('1'));
    expect(a.notes?.map((n) => n.code)).toEqual(['unknown-id']);
    expect(a.reqSeq).toBeUndefined();
    expect(h.finish().pending).toMatchObject([{ from: 'client', id: 1, method: 'tools/list' }]);
  });

  it('flags a duplicate answer and still shows what it answers', () => {
    const h = handshake(harness());
    const r = h.send('client', req(7, 'tools/list'));
    const first = h.send('server', res(7));
    const again = h.send('server', res(7));
    expect(first.notes).toBeUndefined();
    expect(again).toMatchObject({ method: 'tools/list', reqSeq: r.seq });
    expect(again.ms).toBeUndefined();
    expect(again.notes?.[0]?.code).toBe('duplicate-answer');
    expect(again.notes?.[0]?.text).toContain(`seq ${first.seq}`);
  });

  it('pairs first in, first out when an id is pending twice, and flags the reuse', () => {
    const h = handshake(harness());
    const r1 = h.send('client', req(3, 'tools/list'), 10);
    const r2 = h.send('client', req(3, 'prompts/list'), 20);
    expect(r2.notes?.map((n) => n.code)).toEqual(['id-reused']);
    const a1 = h.send('server', res(3), 30);
    const a2 = h.send('server', res(3), 40);
    expect(a1).toMatchObject({ method: 'tools/list', reqSeq: r1.seq, ms: 20 });
    expect(a2).toMatchObject({ method: 'prompts/list', reqSeq: r2.seq, ms: 20 });
    expect(a2.notes).toBeUndefined();
  });

  it('flags an id reused after its answer in a handshake session', () => {
    const h = handshake(harness());
    const r = h.send('client', req(4, 'tools/list'));
    h.send('server', res(4));
    const again = h.send('client', req(4, 'tools/list'));
    expect(again.notes?.[0]).toMatchObject({ code: 'id-reused' });
    expect(again.notes?.[0]?.text).toContain(`seq ${r.seq}`);
  });

  it('flags a request with id null and does not track it', () => {
    const h = handshake(harness());
    const r = h.send('client', req(null, 'tools/list'));
    expect(r).toMatchObject({ kind: 'request', id: null, method: 'tools/list' });
    expect(r.notes?.map((n) => n.code)).toEqual(['null-id-request']);
    expect(h.finish().pending).toEqual([]);
  });

  it('treats an error with id null answering an unparseable line as legitimate and links it', () => {
    const h = handshake(harness());
    const bad = h.send('client', '{"jsonrpc":"2.0","id":9,"method":"tools/list"');
    const e = h.send('server', err(null, -32700, 'Parse error'));
    expect(bad.kind).toBe('invalid');
    expect(e).toMatchObject({ kind: 'error', id: null, reqSeq: bad.seq });
    expect(e.notes).toBeUndefined();
  });

  it('treats an error without id (allowed since 2025-11-25) as legitimate', () => {
    const h = handshake(harness());
    const e = h.send('server', { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
    expect(e.kind).toBe('error');
    expect('id' in e).toBe(false);
    expect(e.notes).toBeUndefined();
  });

  it('links an answer to an invalid request that carried an id, without unknown-id', () => {
    const h = handshake(harness());
    const bad = h.send('client', { id: 12, method: 'tools/list' }); // no "jsonrpc"
    expect(bad).toMatchObject({ kind: 'invalid', id: 12, method: 'tools/list' });
    expect(bad.notes?.map((n) => n.code)).toEqual(['not-jsonrpc']);
    const e = h.send('server', err(12, -32600, 'Invalid Request'));
    expect(e.reqSeq).toBe(bad.seq);
    expect(e.notes).toBeUndefined();
  });

  it('flags a result with id null (unknown-id)', () => {
    const h = handshake(harness());
    const a = h.send('server', res(null));
    expect(a.notes?.map((n) => n.code)).toEqual(['unknown-id']);
  });

  it('pairs and marks an answer with both result and error', () => {
    const h = handshake(harness());
    const r = h.send('client', req(2, 'tools/list'));
    const a = h.send('server', { jsonrpc: '2.0', id: 2, result: {}, error: { code: 1, message: 'x' } });
    expect(a).toMatchObject({ kind: 'error', method: 'tools/list', reqSeq: r.seq });
    expect(a.notes?.map((n) => n.code)).toEqual(['result-and-error']);
    expect(h.finish().pending).toEqual([]);
  });

  it('marks isError on a tools/call result with isError: true, not on other results', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'x' }));
    const a = h.send('server', res(1, { content: [], isError: true }));
    h.send('client', req(2, 'prompts/get', { name: 'p' }));
    const b = h.send('server', res(2, { messages: [], isError: true }));
    expect(a.isError).toBe(true);
    expect(b.isError).toBeUndefined();
    expect(b.target).toBe('p');
  });

  it('sets target on resources/read requests and answers', () => {
    const h = handshake(harness());
    const r = h.send('client', req(1, 'resources/read', { uri: 'file:///a' }));
    const a = h.send('server', err(1, -32002, 'Resource not found'));
    expect(r.target).toBe('file:///a');
    expect(a).toMatchObject({ kind: 'error', target: 'file:///a', method: 'resources/read' });
  });

  it('lists unanswered requests at the end, cancelled ones apart', () => {
    const h = handshake(harness());
    const a = h.send('client', req(1, 'tools/call', { name: 'slow' }));
    const b = h.send('server', req('s1', 'roots/list'));
    const c = h.send('client', req(2, 'tools/call', { name: 'x' }));
    h.send('client', note('notifications/cancelled', { requestId: 2 }));
    const end = h.finish();
    expect(end).toMatchObject({ kind: 'event', event: 'end', from: 'proxy', pendingCount: 2 });
    expect(end.pending).toEqual([
      { from: 'client', id: 1, method: 'tools/call', seq: a.seq },
      { from: 'server', id: 's1', method: 'roots/list', seq: b.seq },
    ]);
    expect(end['cancelledPending']).toEqual([{ from: 'client', id: 2, method: 'tools/call', seq: c.seq }]);
    expect(end['counts']).toMatchObject({ request: 4, response: 1, notification: 2 });
  });

  it('bounds the pending table: evicts the oldest, notes it once, still pairs a remembered evicted request', () => {
    const h = handshake(harness({ maxPending: 3 }));
    const first = h.send('client', req(1, 'tools/list'));
    for (let i = 2; i <= 3; i++) h.send('client', req(i, 'tools/list'));
    const fourth = h.send('client', req(4, 'tools/list'));
    expect(fourth.notes?.map((n) => n.code)).toEqual(['pending-overflow']);
    expect(fourth.notes?.[0]?.text).toContain(`seq ${first.seq}`);
    const fifth = h.send('client', req(5, 'tools/list'));
    expect(fifth.notes).toBeUndefined(); // noted once
    const late = h.send('server', res(1));
    expect(late.reqSeq).toBe(first.seq);
    expect(late.notes).toBeUndefined();
    const end = h.finish();
    expect(end['evicted']).toEqual({ client: 2, server: 0 });
    expect(end['pendingCount']).toBe(3);
  });

  it('keeps memory bounded for a peer that never answers', () => {
    const h = handshake(harness({ maxPending: 100 }));
    for (let i = 1; i <= 5000; i++) h.session.onLine('client', line(req(i, 'tools/list')), i);
    const end = h.finish();
    expect(end['pendingCount']).toBe(100);
    expect(end['evicted']).toEqual({ client: 4900, server: 0 });
  });
});

describe('cancel links', () => {
  it('links notifications/cancelled to the request it cancels; the late answer is still paired and marked', () => {
    const h = handshake(harness());
    const r = h.send('client', req(8, 'tools/call', { name: 'slow' }), 100);
    const c = h.send('client', note('notifications/cancelled', { requestId: 8, reason: 'user' }), 150);
    expect(c).toMatchObject({ kind: 'notification', reqSeq: r.seq, ms: 50 });
    expect(c.notes).toBeUndefined();
    const a = h.send('server', res(8, { content: [] }), 160);
    expect(a).toMatchObject({ reqSeq: r.seq, cancelled: true, ms: 60 });
    expect(a.notes).toBeUndefined();
  });

  it('links a cancel that raced the answer without a finding', () => {
    const h = handshake(harness());
    const r = h.send('client', req(8, 'tools/call', { name: 'x' }));
    h.send('server', res(8, { content: [] }));
    const c = h.send('client', note('notifications/cancelled', { requestId: 8 }));
    expect(c.reqSeq).toBe(r.seq);
    expect(c.notes).toBeUndefined();
  });

  it('flags a cancel for an id never sent (with its type)', () => {
    const h = handshake(harness());
    h.send('client', req(8, 'tools/call', { name: 'x' }));
    const c = h.send('client', note('notifications/cancelled', { requestId: '8' }));
    expect(c.notes?.map((n) => n.code)).toEqual(['cancel-unknown-id']);
  });

  it('links a server cancel to a server request', () => {
    const h = handshake(harness());
    const r = h.send('server', req(0, 'sampling/createMessage', { messages: [], maxTokens: 1 }));
    const c = h.send('server', note('notifications/cancelled', { requestId: 0 }));
    expect(c.reqSeq).toBe(r.seq);
    expect(c.notes).toBeUndefined();
  });

  it('flags cancelling initialize', () => {
    const h = harness();
    const init = h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    const c = h.send('client', note('notifications/cancelled', { requestId: 0 }));
    expect(c.reqSeq).toBe(init.seq);
    expect(c.notes?.map((n) => n.code)).toEqual(['cancel-initialize']);
  });
});

describe('progress links', () => {
  it('links progress to the request carrying its token, checks it increases', () => {
    const h = handshake(harness());
    const r = h.send('client', req(3, 'tools/call', { name: 'long', _meta: { progressToken: 3 } }), 0);
    const p1 = h.send('server', note('notifications/progress', { progressToken: 3, progress: 1, total: 3 }), 10);
    const p2 = h.send('server', note('notifications/progress', { progressToken: 3, progress: 2, total: 3 }), 20);
    expect(p1).toMatchObject({ reqSeq: r.seq, ms: 10 });
    expect(p2).toMatchObject({ reqSeq: r.seq, ms: 20 });
    const p3 = h.send('server', note('notifications/progress', { progressToken: 3, progress: 2, total: 3 }), 30);
    expect(p3.notes?.map((n) => n.code)).toEqual(['progress-not-increasing']);
    h.send('server', res(3, { content: [] }));
    const after = h.send('server', note('notifications/progress', { progressToken: 3, progress: 3 }));
    expect(after.notes?.map((n) => n.code)).toEqual(['progress-unknown-token']);
  });

  it('matches tokens with their type', () => {
    const h = handshake(harness());
    h.send('client', req(3, 'tools/call', { name: 'long', _meta: { progressToken: 'tok' } }));
    const wrong = h.send('server', note('notifications/progress', { progressToken: 3, progress: 1 }));
    expect(wrong.notes?.map((n) => n.code)).toEqual(['progress-unknown-token']);
    const right = h.send('server', note('notifications/progress', { progressToken: 'tok', progress: 1 }));
    expect(right.notes).toBeUndefined();
  });

  it('links progress the client sends for a server request', () => {
    const h = handshake(harness());
    const r = h.send('server', req(1, 'sampling/createMessage', { messages: [], maxTokens: 1, _meta: { progressToken: 'p' } }));
    const p = h.send('client', note('notifications/progress', { progressToken: 'p', progress: 0.5 }));
    expect(p.reqSeq).toBe(r.seq);
    expect(p.notes).toBeUndefined();
  });

  it('flags a progress token already used by another active request', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'a', _meta: { progressToken: 'same' } }));
    const b = h.send('client', req(2, 'tools/call', { name: 'b', _meta: { progressToken: 'same' } }));
    expect(b.notes?.map((n) => n.code)).toEqual(['progress-token-reused']);
  });

  it('keeps a token alive after a task result (progress continues for the task)', () => {
    const h = handshake(harness());
    const r = h.send('client', req(1, 'tools/call', { name: 'a', task: {}, _meta: { progressToken: 1 } }));
    h.send('server', res(1, { task: { taskId: 't1', status: 'working' } }));
    const p = h.send('server', note('notifications/progress', { progressToken: 1, progress: 1 }));
    expect(p.reqSeq).toBe(r.seq);
    expect(p.notes).toBeUndefined();
  });
});

function line(msg: unknown) {
  const data = Buffer.from(JSON.stringify(msg));
  return { bytes: data.length, data };
}
