/**
 * HTTP mode's transport outcomes as records (issue 33 §2, §3, §5; issue 28 §2), the proxy in-process
 * in front of a scripted upstream on 127.0.0.1: 202, 404 for an expired session, 405 for a GET stream
 * the server does not offer, 5xx, each with an `exchange` record; a re-issued session id and a
 * reconnect after expiry as `session-id` events; a 2026-07-28 request whose routing headers disagree
 * with its body gets the header-mismatch finding; bodies mcp-tap does not decode are counted with the
 * reason, and a JSON body off the endpoint that is not JSON-RPC (a client registration) is never logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startHttpProxy, type HttpProxy } from '../../src/http/run-http-proxy.js';
import { tempDir } from '../helpers/paths.js';
import { validateRecord } from '../../src/log/validate-record.js';

type Rec = Record<string, unknown> & { session: string; kind: string; event?: string; seq: number };

let upstream: Server;
let proxy: HttpProxy;
const tmp = tempDir('mcp-tap-http-outcomes-');
const log = join(tmp.dir, 'outcomes.jsonrpc.log');
const warnings: string[] = [];
let recs: Rec[] = [];

beforeAll(async () => {
  let sid = 'SESSION-ONE-1111111111';
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const msg = body.startsWith('{') ? (JSON.parse(body) as { id?: number; method?: string }) : {};
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (req.url === '/register') return json(201, { client_id: 'c', client_secret: 'REGISTERED-SECRET-42' });
      if (req.method === 'GET' && req.headers['x-stay'] === '1') {
        // a GET stream that is still open when mcp-tap stops
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('id: s1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"open"}}\n\n');
        return;
      }
      if (req.method === 'GET') return res.writeHead(405, { allow: 'POST' }).end();
      if (msg.method === 'initialize') return json(200, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }, { 'mcp-session-id': sid });
      if (msg.method === 'notifications/initialized') return res.writeHead(202).end();
      if (msg.method === 'reissue') {
        sid = 'SESSION-TWO-2222222222';
        return json(200, { jsonrpc: '2.0', id: msg.id, result: {} }, { 'mcp-session-id': sid });
      }
      if (msg.method === 'expire') {
        sid = 'SESSION-THREE-33333333';
        return json(404, { jsonrpc: '2.0', id: msg.id, error: { code: -32001, message: 'Session not found' } });
      }
      if (msg.method === 'badgzip') return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('this is not gzip');
      if (msg.method === 'crash') return res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal Server Error</h1>');
      if (msg.method === 'tools/call') return json(400, { jsonrpc: '2.0', id: msg.id, error: { code: -32020, message: 'Header mismatch' } });
      return json(200, { jsonrpc: '2.0', id: msg.id, result: {} });
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const up = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`);
  proxy = await startHttpProxy({ upstream: up, port: 0, name: 'outcomes', logPath: log, maxLogBytes: 1 << 20, maxLogSize: 0, maxLogFiles: 1, quiet: true }, { warn: (m) => warnings.push(m) });

  const base = `http://127.0.0.1:${proxy.port}`;
  let session: string | undefined;
  const post = async (body: unknown, headers: Record<string, string> = {}, path = '/mcp') => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}), ...headers }, body: JSON.stringify(body) });
    await res.arrayBuffer().catch(() => {}); // fetch gunzips, and the bad gzip body does not
    return res;
  };
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
  session = (await post(init)).headers.get('mcp-session-id')!;
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
  expect(get.status).toBe(405);
  session = (await post({ jsonrpc: '2.0', id: 1, method: 'reissue' })).headers.get('mcp-session-id')!;
  expect((await post({ jsonrpc: '2.0', id: 2, method: 'crash' })).status).toBe(500);
  expect((await post({ jsonrpc: '2.0', id: 5, method: 'badgzip' }, { 'accept-encoding': 'gzip' })).status).toBe(200);
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  expect((await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_weather', _meta: meta } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_forecast' })).status).toBe(400);
  expect((await post({ jsonrpc: '2.0', id: 4, method: 'expire' })).status).toBe(404);
  session = undefined;
  // the host starts over after the server forgot its session
  session = (await post(init)).headers.get('mcp-session-id')!;
  // a 2026-07-28 body sent with none of its routing headers
  expect((await post({ jsonrpc: '2.0', id: 6, method: 'prompts/get', params: { name: 'greet', _meta: meta } })).status).toBe(200);
  // a client registration (JSON, off the endpoint, not JSON-RPC): relayed, never logged
  const reg = await fetch(`${base}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'x', redirect_uris: ['http://127.0.0.1:9/cb'] }) });
  expect(await reg.json()).toMatchObject({ client_secret: 'REGISTERED-SECRET-42' });
  const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'x-stay': '1' } });
  const reader = stream.body!.getReader();
  await reader.read(); // its first event has arrived
  await proxy.close();
  await reader.cancel().catch(() => {});
  recs = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec);
}, 30_000);

afterAll(async () => {
  await new Promise<void>((r) => upstream.close(() => r()));
  tmp.cleanup();
});

const http = (r: Rec) => r['http'] as { method: string; path: string; status?: number; x?: number };

describe('HTTP mode: status-only outcomes and session ids as records', () => {
  it('a GET stream open at shutdown: its messages, then its exchange record (cut), then its session ends', () => {
    const x = http(recs.find((r) => r.event === 'exchange' && http(r).method === 'GET' && http(r).status === 200)!).x;
    const get = recs.filter((r) => http(r)?.x === x || (r.event === 'end' && r.session === recs.find((y) => http(y)?.x === x)?.session));
    expect(get.map((r) => r.event ?? r.kind)).toEqual(['http', 'notification', 'http', 'exchange', 'end']);
    expect(get[3]).toMatchObject({ cut: true, http: { method: 'GET', status: 200, stream: 'get' } });
    expect(get[4]).toMatchObject({ reason: 'shutdown' });
  });

  it('writes only valid records, one exchange record per exchange with masked headers and phase times', () => {
    for (const r of recs) expect({ r, problems: validateRecord(r) }).toEqual({ r, problems: [] });
    const exchanges = recs.filter((r) => r.event === 'exchange');
    expect(exchanges.map((r) => `${http(r).method} ${http(r).path} ${http(r).status}`)).toEqual([
      'POST /mcp 200',
      'POST /mcp 202',
      'GET /mcp 405',
      'POST /mcp 200',
      'POST /mcp 500',
      'POST /mcp 200',
      'POST /mcp 400',
      'POST /mcp 404',
      'POST /mcp 200',
      'POST /mcp 200',
      'POST /register 201',
      'GET /mcp 200',
    ]);
    expect(exchanges.map((r) => http(r).x)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const x of exchanges) {
      const t = x['timing'] as { request: number; head: number; end: number };
      expect(t.request).toBeLessThanOrEqual(t.head);
      expect(t.head).toBeLessThanOrEqual(t.end);
    }
    const text = readFileSync(log, 'utf8');
    for (const s of ['SESSION-ONE-1111111111', 'SESSION-TWO-2222222222', 'SESSION-THREE-33333333', 'REGISTERED-SECRET-42']) expect(text).not.toContain(s);
  });

  it('202, 405 for a GET stream the server does not offer, 5xx and 404 for an expired session are http events', () => {
    const events = recs.filter((r) => r.event === 'http');
    expect(events.map((r) => [http(r).method, http(r).status, r['reason'] ?? null])).toEqual([
      ['POST', 202, null],
      ['GET', 405, 'no-get-stream'],
      ['POST', 500, null],
      ['POST', 200, null],
      ['POST', 400, null],
      ['POST', 404, 'session-not-found'],
      ['POST', 201, null],
      ['GET', 200, null],
      ['GET', 200, null],
    ]);
    const expired = recs.find((r) => r.event === 'end' && r['reason'] === 'session-not-found')!;
    expect(expired).toBeDefined();
  });

  it('a re-issued session id and a reconnect after expiry are session-id events', () => {
    const changes = recs.filter((r) => r.event === 'session-id');
    expect(changes.map((r) => r['reason'])).toEqual(['re-issued', 'reconnect']);
    const [reissued, reconnect] = changes as [Rec, Rec];
    expect(reissued['previous']).not.toBe(reissued['sessionId']);
    expect(reissued.session).toBe(recs.find((r) => r.kind === 'request' && r['method'] === 'reissue')!.session);
    const expiredSession = recs.find((r) => r.event === 'end' && r['reason'] === 'session-not-found')!.session;
    expect(reconnect['previousSession']).toBe(expiredSession);
    expect(reconnect['previous']).toBe(reissued['sessionId']);
    expect(reconnect.session).not.toBe(expiredSession);
  });

  it('a 2026-07-28 request whose Mcp-Name is not its body: the header-mismatch finding', () => {
    const call = recs.find((r) => r.kind === 'request' && r['method'] === 'tools/call')!;
    expect((call['notes'] as Array<{ code: string; text: string }>).map((n) => n.code)).toContain('header-mismatch');
    expect(JSON.stringify(call['notes'])).toContain('Mcp-Name \\"get_forecast\\" does not match the body\'s \\"get_weather\\"');
  });

  it('a 2026-07-28 body sent without MCP-Protocol-Version (nor Mcp-Method, Mcp-Name): each missing header named; older requests are not held to them', () => {
    const get = recs.find((r) => r.kind === 'request' && r['method'] === 'prompts/get')!;
    const mismatch = (get['notes'] as Array<{ code: string; text: string }>).find((n) => n.code === 'header-mismatch')!;
    expect(mismatch.text).toBe(
      'routing headers disagree with the body: no MCP-Protocol-Version header (the body\'s _meta protocolVersion is "2026-07-28"); no Mcp-Method header (the body\'s method is "prompts/get"); no Mcp-Name header (required for prompts/get; the body names "greet") (a 2026-07-28 server must refuse this with 400 and -32020 HeaderMismatch)',
    );
    const older = recs.filter((r) => r.kind === 'request' && r['method'] !== 'prompts/get' && r['method'] !== 'tools/call');
    expect(older.length).toBeGreaterThan(0);
    for (const r of older) expect(JSON.stringify(r['notes'] ?? []), String(r['method'])).not.toContain('header-mismatch');
  });

  it('what passed undecoded is counted with the reason; the registration body never reaches the log', () => {
    const crash = recs.find((r) => r.event === 'exchange' && http(r).status === 500)!;
    expect(crash['notDecoded']).toBe('not decoded: Content-Type "text/html"');
    // a body that does not decode: said, counted, and no half message in the log
    const bad = recs.find((r) => r.event === 'exchange' && http(r).x === 6)!;
    expect(bad['notDecoded']).toMatch(/^not decoded: the gzip body could not be decoded \(/);
    expect(recs.some((r) => r.kind !== 'request' && r.kind !== 'event' && http(r)?.x === 6)).toBe(false);
    const reg = recs.find((r) => r.event === 'exchange' && http(r).path === '/register')!;
    expect(reg['notDecoded']).toBe('not decoded: a JSON body that is not JSON-RPC, off the MCP endpoint');
    expect(reg.session).toBe(recs[0]!.session);
    const ends = recs.filter((r) => r.event === 'end');
    const total = ends.reduce((n, e) => n + (typeof e['notDecoded'] === 'number' ? e['notDecoded'] : 0), 0);
    expect(total).toBe(recs.filter((r) => r.event === 'exchange' && r['notDecoded'] !== undefined).length);
    expect(warnings).toEqual([]);
  });
});
