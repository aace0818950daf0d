/**
 * What HTTP mode writes to the log, in process (issue 27): the upstream URL's query values are masked in
 * every member of the start record (`upstream` and `listen`); a refused request's query never reaches
 * the log; an SSE event whose data is exactly the log limit is logged whole, one byte more is shortened;
 * an exchange record keeps 100 request headers and values of up to 4,096 characters whole, and says when
 * it cut either.
 * The tap runs in the test process between node:http peers on port 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHttpProxy, type HttpProxy } from '../../src/http/run-http-proxy.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { tempDir } from '../helpers/paths.js';

const LIMIT = 1024;
const QUERY_SECRET = 'SECRET-abc123';

/** A JSON-RPC answer to id 1 of exactly `size` bytes. */
function answer(size: number): string {
  const shell = '{"jsonrpc":"2.0","id":1,"result":{"t":""}}';
  return `{"jsonrpc":"2.0","id":1,"result":{"t":"${'x'.repeat(size - shell.length)}"}}`;
}

let upstream: Server;
let proxy: HttpProxy;
let log: string;
let closed = false;
const tmp = tempDir('mcp-tap-http-log-');
const warnings: string[] = [];

beforeAll(async () => {
  // answers each POST with one SSE event whose data is as long as the request's `size` param
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const size = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { params: { size: number } }).params.size;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: message\ndata: ${answer(size)}\n\n`);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  log = join(tmp.dir, 'http.jsonrpc.log');
  proxy = await startHttpProxy(
    { upstream: new URL(`http://127.0.0.1:${port}/mcp?api_key=${QUERY_SECRET}&region=eu`), port: 0, name: 'q', maxLogBytes: LIMIT, logPath: log, maxLogSize: 1 << 30, maxLogFiles: 1, quiet: true },
    { warn: (m) => warnings.push(m) },
  );
});

afterAll(async () => {
  if (!closed) await proxy?.close();
  await new Promise((r) => upstream?.close(r));
  tmp.cleanup();
});

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${proxy.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      const got: Buffer[] = [];
      res.on('data', (c: Buffer) => got.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(got).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP mode log', () => {
  let recs: Rec[];
  let text: string;
  beforeAll(async () => {
    const path = new URL(proxy.url).pathname + new URL(proxy.url).search;
    const refused = await post(`/mcp?api_key=REFUSED-${QUERY_SECRET}&code=oauth-code-99`, '{"jsonrpc":"2.0","id":9,"method":"ping"}', { host: 'evil.example' });
    expect(refused.status).toBe(403);
    for (const size of [LIMIT, LIMIT + 1]) {
      const r = await post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { size } }));
      expect(r.body).toBe(`event: message\ndata: ${answer(size)}\n\n`);
    }
    const many: Record<string, string> = {};
    for (let i = 0; i < 120; i++) many[`x-many-${i}`] = String(i);
    const ask = (headers: Record<string, string>) => post(path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { size: 100 } }), headers);
    expect((await ask(many)).status).toBe(200);
    expect((await ask({ 'x-long': 'v'.repeat(4096) })).status).toBe(200);
    expect((await ask({ 'x-long': 'w'.repeat(4097) })).status).toBe(200);
    await proxy.close();
    closed = true;
    text = readFileSync(log, 'utf8');
    recs = readRecords(log);
  });

  it('masks the query values of the upstream URL in the start record: upstream and listen alike', () => {
    expect(proxy.url).toContain(QUERY_SECRET); // the URL for the host's config keeps what the upstream needs
    const start = recs.find((r) => r.event === 'start')!;
    expect(start.upstream).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\[REDACTED:query\]&region=\[REDACTED:query\]$/);
    expect(start.listen).toBe(`http://127.0.0.1:${proxy.port}/mcp?api_key=[REDACTED:query]&region=[REDACTED:query]`);
    expect(text).not.toContain(QUERY_SECRET);
  });

  it('logs a refused request by path and reason, without its query values', () => {
    const refused = recs.filter((r) => r.event === 'refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.http).toEqual({ method: 'POST', path: '/mcp', status: 403 });
    expect(refused[0]!.reason).toBe('Host "evil.example" is not a loopback name');
    expect(text).not.toContain('oauth-code-99');
  });

  it('keeps an SSE event of exactly the limit whole and shortens one byte more', () => {
    const answers = recs.filter((r) => r.kind === 'response' && (r.bytes === LIMIT || r.bytes === LIMIT + 1));
    expect(answers.map((r) => [r.bytes, r.truncated ?? false])).toEqual([
      [LIMIT, false],
      [LIMIT + 1, true],
    ]);
    expect(answers[0]!.msg).toEqual(JSON.parse(answer(LIMIT)));
    expect((answers[1]!.msg as { id: number }).id).toBe(1);
    expect(JSON.stringify(answers[1]!.msg).length).toBeLessThan(LIMIT + 1);
  });

  it('keeps the first 100 request headers and header values of up to 4,096 characters, and says when it cut', () => {
    const exchanges = recs.filter((r) => r.event === 'exchange');
    const headersOf = (r: Rec) => (r.request as { headers: Array<[string, string]> }).headers;
    const many = exchanges.find((r) => headersOf(r).some(([n]) => n === 'x-many-0'))!;
    expect(headersOf(many)).toHaveLength(100);
    expect(many.headersCut).toBe(true);
    const long = (c: string) => exchanges.find((r) => headersOf(r).some(([n, v]) => n === 'x-long' && v.startsWith(c)))!;
    expect(headersOf(long('v')).find(([n]) => n === 'x-long')![1]).toBe('v'.repeat(4096));
    expect(long('v').headersCut).toBeUndefined();
    expect(headersOf(long('w')).find(([n]) => n === 'x-long')![1]).toBe(`${'w'.repeat(4096)}…`);
    expect(long('w').headersCut).toBe(true);
  });
});
