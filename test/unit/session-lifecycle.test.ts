import { describe, expect, it } from 'vitest';
import { err, handshake, harness, meta2026, note, req, res } from './helpers/session-harness.js';

describe('handshake era (2025-11-25)', () => {
  it('emits a lifecycle event right after the initialize answer', () => {
    const h = harness();
    const init = h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'c', version: '1' } }));
    const ans = h.send('server', res(0, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '2' } }));
    const ev = h.last();
    expect(ans).toMatchObject({ kind: 'response', method: 'initialize', reqSeq: init.seq });
    expect(ev).toMatchObject({
      seq: ans.seq + 1,
      from: 'proxy',
      kind: 'event',
      event: 'lifecycle',
      era: 'handshake',
      protocolVersion: '2025-11-25',
      offeredVersion: '2025-11-25',
      clientInfo: { name: 'c', version: '1' },
      serverInfo: { name: 's', version: '2' },
      clientCapabilities: { roots: { listChanged: true } },
      serverCapabilities: { tools: {} },
    });
    expect(h.codes()).toEqual([]);
  });

  it('allows ping before initialize completes, and server logging before initialized', () => {
    const h = harness();
    h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    h.send('client', req(1, 'ping'));
    h.send('server', note('notifications/message', { level: 'info', data: 'starting' }));
    h.send('server', res(1));
    h.send('server', req('p', 'ping'));
    h.send('client', res('p'));
    h.send('server', res(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
    h.send('server', note('notifications/message', { level: 'info', data: 'ready' }));
    h.send('client', note('notifications/initialized'));
    h.send('server', req(0, 'roots/list'));
    h.send('client', res(0, { roots: [] }));
    expect(h.codes()).toEqual([]);
  });

  it('flags a client request other than ping before the initialize answer', () => {
    const h = harness();
    h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    const early = h.send('client', req(1, 'tools/list'));
    expect(early.notes?.map((n) => n.code)).toEqual(['before-initialize']);
  });

  it('flags a client request when there was no initialize at all', () => {
    const h = harness();
    const r = h.send('client', req(1, 'tools/call', { name: 'x' }));
    expect(r.notes?.map((n) => n.code)).toEqual(['before-initialize']);
  });

  it('flags a server request other than ping before the client’s initialized', () => {
    const h = harness();
    h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    h.send('server', res(0, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
    const early = h.send('server', req(0, 'roots/list'));
    expect(early.notes?.map((n) => n.code)).toEqual(['before-initialize']);
  });

  it('takes an older version in the initialize answer as negotiation: no note, both versions in the lifecycle event', () => {
    const h = harness();
    handshake(h, '2025-11-25', '2025-06-18');
    const ans = h.records.find((r) => r.method === 'initialize' && r.kind === 'response')!;
    expect(ans.notes).toBeUndefined();
    expect(h.codes()).toEqual([]);
    expect(h.records.find((r) => r.event === 'lifecycle')).toMatchObject({ protocolVersion: '2025-06-18', offeredVersion: '2025-11-25' });
  });

  it('checks methods by direction for the negotiated version', () => {
    const h = handshake(harness());
    const wrongDir = h.send('server', req(1, 'tools/list'));
    expect(wrongDir.notes?.map((n) => n.code)).toEqual(['method-wrong-direction']);
    const wrongDir2 = h.send('client', req(2, 'sampling/createMessage', { messages: [], maxTokens: 1 }));
    expect(wrongDir2.notes?.map((n) => n.code)).toEqual(['method-wrong-direction']);
    const clientLog = h.send('client', note('notifications/message', { level: 'info', data: 'x' }));
    expect(clientLog.notes?.map((n) => n.code)).toEqual(['method-wrong-direction']);
    const asRequest = h.send('client', req(3, 'notifications/initialized'));
    expect(asRequest.notes?.map((n) => n.code)).toEqual(['method-wrong-kind']);
    const custom = h.send('client', req(4, 'vendor/custom-thing'));
    expect(custom.notes).toBeUndefined();
  });

  it('flags a method that is not part of the negotiated version', () => {
    const h = handshake(harness(), '2025-03-26');
    const elicit = h.send('server', req(1, 'elicitation/create', { message: 'x', requestedSchema: {} }));
    expect(elicit.notes?.map((n) => n.code)).toEqual(['method-not-in-version']);
    const h2 = handshake(harness(), '2025-11-25');
    const ok = h2.send('server', req(1, 'elicitation/create', { message: 'x', requestedSchema: {} }));
    expect(ok.notes).toBeUndefined();
    const tasks = h2.send('server', req(2, 'tasks/list'));
    expect(tasks.notes).toBeUndefined();
  });
});

describe('batches', () => {
  it('accepts a batch under 2025-03-26 and pairs its elements', () => {
    const h = handshake(harness(), '2025-03-26');
    const b = h.send('client', [req(1, 'tools/list'), req(2, 'resources/read', { uri: 'a://b' }), note('notifications/roots/list_changed')], 100);
    expect(b).toMatchObject({ kind: 'batch' });
    expect(b.items).toEqual([
      { kind: 'request', id: 1, method: 'tools/list' },
      { kind: 'request', id: 2, method: 'resources/read', target: 'a://b' },
      { kind: 'notification', method: 'notifications/roots/list_changed' },
    ]);
    expect(b.notes).toBeUndefined();
    expect(Array.isArray(b.msg)).toBe(true);
    const a = h.send('server', [res(2, { contents: [] }), err(1)], 110);
    expect(a.kind).toBe('batch');
    expect(a.items).toEqual([
      { kind: 'response', id: 2, method: 'resources/read', target: 'a://b', reqSeq: b.seq, ms: 10 },
      { kind: 'error', id: 1, method: 'tools/list', reqSeq: b.seq, ms: 10 },
    ]);
    expect(h.codes()).toEqual([]);
    expect(h.finish().pending).toEqual([]);
  });

  it('pairs a single answer to a request sent in a batch', () => {
    const h = handshake(harness(), '2025-03-26');
    const b = h.send('client', [req(1, 'tools/list')]);
    const a = h.send('server', res(1));
    expect(a.reqSeq).toBe(b.seq);
  });

  it('flags a batch under 2025-06-18 and later', () => {
    for (const v of ['2024-11-05', '2025-06-18', '2025-11-25']) {
      const h = handshake(harness(), v);
      const b = h.send('client', [req(1, 'tools/list'), req(2, 'prompts/list')]);
      expect(b.kind).toBe('batch');
      expect(b.notes?.map((n) => n.code)).toEqual(['batch-not-allowed']);
    }
  });

  it('flags initialize inside a batch', () => {
    const h = harness();
    const b = h.send('client', [req(0, 'initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } })]);
    expect(b.notes?.map((n) => n.code)).toEqual(['batch-not-allowed']);
  });

  it('records [] as invalid (empty-batch); its null-id error answer is legitimate', () => {
    const h = handshake(harness(), '2025-03-26');
    const b = h.send('client', '[]');
    expect(b.kind).toBe('invalid');
    expect(b.msg).toEqual([]);
    expect(b.notes?.map((n) => n.code)).toEqual(['empty-batch']);
    const e = h.send('server', err(null, -32600, 'Invalid Request'));
    expect(e.reqSeq).toBe(b.seq);
    expect(e.notes).toBeUndefined();
  });

  it('reports element findings on the element and on the record', () => {
    const h = handshake(harness(), '2025-03-26');
    const b = h.send('client', [req(1, 'tools/list'), 42, req(null, 'prompts/list')]);
    expect(b.items?.[1]).toMatchObject({ kind: 'invalid', notes: [{ code: 'not-jsonrpc' }] });
    expect(b.items?.[2]).toMatchObject({ kind: 'request', id: null, notes: [{ code: 'null-id-request' }] });
    expect(b.notes?.map((n) => n.code)).toEqual(['not-jsonrpc', 'null-id-request']);
    expect(b.notes?.[0]?.text).toMatch(/^element 2: /);
  });
});

describe('stateless era (2026-07-28)', () => {
  it('takes lifecycle information from server/discover and _meta', () => {
    const h = harness();
    const d = h.send('client', req('d1', 'server/discover', { _meta: meta2026() }));
    expect(h.records.length).toBe(1); // no lifecycle before the discover answer
    const a = h.send('server', res('d1', {
      resultType: 'complete',
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '9' } },
    }));
    expect(a).toMatchObject({ method: 'server/discover', reqSeq: d.seq });
    expect(h.last()).toMatchObject({
      event: 'lifecycle',
      era: 'stateless',
      protocolVersion: '2026-07-28',
      supportedVersions: ['2026-07-28'],
      clientInfo: { name: 'c', version: '1' },
      serverInfo: { name: 's', version: '9' },
      clientCapabilities: { elicitation: {} },
      serverCapabilities: { tools: {} },
    });
    const t = h.send('client', req(2, 'tools/call', { name: 'x', _meta: meta2026() }));
    h.send('server', res(2, { resultType: 'complete', content: [] }));
    expect(t.notes).toBeUndefined();
    expect(h.records.filter((r) => r.event === 'lifecycle')).toHaveLength(1);
    expect(h.codes()).toEqual([]);
  });

  it('emits lifecycle after the first request with _meta when there is no discover', () => {
    const h = harness();
    const r = h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    expect(r.notes).toBeUndefined(); // not "before initialize"
    expect(h.last()).toMatchObject({ event: 'lifecycle', era: 'stateless', protocolVersion: '2026-07-28', seq: r.seq + 1 });
    h.send('client', req(2, 'tools/list', { _meta: meta2026() }));
    expect(h.records.filter((x) => x.event === 'lifecycle')).toHaveLength(1);
  });

  it('flags a request without _meta protocolVersion', () => {
    const h = harness();
    h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    const r = h.send('client', req(2, 'tools/list'));
    expect(r.notes?.map((n) => n.code)).toEqual(['missing-protocol-version']);
  });

  it('applies the 2026-07-28 tables: no server→client requests, no ping', () => {
    const h = harness();
    h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    const s = h.send('server', req(1, 'roots/list'));
    expect(s.notes?.map((n) => n.code)).toEqual(['method-not-in-version']);
    const p = h.send('client', req(2, 'ping', { _meta: meta2026() }));
    expect(p.notes?.map((n) => n.code)).toEqual(['method-not-in-version']);
    const ext = h.send('client', req(3, 'tasks/get', { taskId: 't', _meta: meta2026() }));
    expect(ext.notes).toBeUndefined();
  });

  it('flags a version the server did not offer, learned from discover or from -32022', () => {
    const h = harness();
    h.send('client', req(1, 'server/discover', { _meta: meta2026() }));
    h.send('server', res(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} }));
    const r = h.send('client', req(2, 'tools/list', { _meta: meta2026({}, '2027-01-01') }));
    expect(r.notes?.map((n) => n.code)).toEqual(['version-not-offered']);

    const h2 = harness();
    h2.send('client', req(1, 'tools/list', { _meta: meta2026({}, '2099-01-01') }));
    h2.send('server', err(1, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2099-01-01' }));
    const again = h2.send('client', req(2, 'tools/list', { _meta: meta2026({}, '2099-01-01') }));
    expect(again.notes?.map((n) => n.code)).toEqual(['version-not-offered']);
    const fixed = h2.send('client', req(3, 'tools/list', { _meta: meta2026() }));
    expect(fixed.notes).toBeUndefined();
    expect(h2.records.filter((x) => x.event === 'lifecycle').map((x) => x['protocolVersion'])).toEqual(['2099-01-01', '2026-07-28']);
  });

  it('does not flag request ids reused after their answer (allowed since 2026-07-28)', () => {
    const h = harness();
    h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    h.send('server', res(1, { resultType: 'complete', tools: [] }));
    const again = h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    expect(again.notes).toBeUndefined();
  });

  it('links an input_required answer to the retry; exchangeMs covers the whole exchange', () => {
    const h = harness();
    const first = h.send('client', req(1, 'tools/call', { name: 'deploy', arguments: {}, _meta: meta2026() }), 0);
    const ir = h.send('server', res(1, {
      resultType: 'input_required',
      inputRequests: { confirm: { method: 'elicitation/create', params: { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object' } } } },
      requestState: 'opaque-1',
    }), 10);
    expect(ir).toMatchObject({ reqSeq: first.seq, ms: 10, inputRequired: true, target: 'deploy' });
    const retry = h.send('client', req(2, 'tools/call', {
      name: 'deploy', arguments: {}, inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: 'opaque-1', _meta: meta2026(),
    }), 100);
    expect(retry.retryOf).toBe(first.seq);
    const done = h.send('server', res(2, { resultType: 'complete', content: [] }), 130);
    expect(done).toMatchObject({ reqSeq: retry.seq, ms: 30, exchangeMs: 130 });
    expect(done.inputRequired).toBeUndefined();
    expect(h.codes()).toEqual([]);
  });

  it('follows a multi-round exchange and matches retries without requestState by method and target', () => {
    const h = harness();
    const first = h.send('client', req(1, 'prompts/get', { name: 'p', _meta: meta2026() }), 0);
    h.send('server', res(1, { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } } }), 5);
    const other = h.send('client', req(9, 'prompts/get', { name: 'other', inputResponses: {}, _meta: meta2026() }), 6);
    expect(other.retryOf).toBeUndefined();
    const r2 = h.send('client', req(2, 'prompts/get', { name: 'p', inputResponses: { a: { roots: [] } }, _meta: meta2026() }), 10);
    expect(r2.retryOf).toBe(first.seq);
    h.send('server', res(2, { resultType: 'input_required', requestState: 's2' }), 20);
    const r3 = h.send('client', req(3, 'prompts/get', { name: 'p', requestState: 's2', _meta: meta2026() }), 30);
    expect(r3.retryOf).toBe(first.seq);
    const fin = h.send('server', err(3, -32602, 'Invalid params'), 45);
    expect(fin).toMatchObject({ kind: 'error', exchangeMs: 45, ms: 15 });
  });

  it('lets a dual-era client probe with server/discover and fall back to initialize', () => {
    const h = harness();
    h.send('client', req(0, 'server/discover', { _meta: meta2026() }));
    h.send('server', err(0, -32601, 'Method not found'));
    h.send('client', req(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    h.send('server', res(1, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
    h.send('client', note('notifications/initialized'));
    h.send('client', req(2, 'ping'));
    h.send('server', res(2));
    expect(h.codes()).toEqual([]);
    expect(h.records.filter((r) => r.event === 'lifecycle')).toMatchObject([{ era: 'handshake', protocolVersion: '2025-11-25' }]);
  });

  it('links a server cancel that ends a subscriptions/listen stream', () => {
    const h = harness();
    const sub = h.send('client', req(7, 'subscriptions/listen', { notifications: {}, _meta: meta2026() }));
    h.send('server', note('notifications/subscriptions/acknowledged', { _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } }));
    const c = h.send('server', note('notifications/cancelled', { requestId: 7 }));
    expect(c.reqSeq).toBe(sub.seq);
    expect(h.codes()).toEqual([]);
  });
});
