/**
 * HTTP mode end to end: the built CLI (`mcp-tap http`) between the official SDK client and SDK servers
 * over Streamable HTTP and legacy HTTP+SSE. The same session through the tap and directly gives the same
 * results, each side receives the bytes the other sent, and the log reads like a stdio log with an
 * `http` member: pairing per MCP session, resumption linked, DELETE ending the session, secrets masked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { startUpstream, type Upstream } from '../helpers/http-upstream.js';
import { validateRecord } from '../../src/log/validate-record.js';

const tmp = tempDir('mcp-tap-http-');
afterAll(() => tmp.cleanup());

const taps: TapRun[] = [];
afterEach(async () => {
  for (const t of taps.splice(0)) {
    t.child.kill('SIGTERM');
    await t.exited().catch(() => t.kill());
  }
});

/** Starts `mcp-tap http <upstream>` on a free port; resolves with the local URL it prints. */
async function startTap(upstream: string, log: string, extra: string[] = []): Promise<{ run: TapRun; url: string }> {
  const run = runTap(['http', upstream, '--port', '0', '--log', log, ...extra]);
  taps.push(run);
  await run.waitStderr(/listening on (\S+)/);
  const url = /listening on (\S+)/.exec(run.stderr())![1]!;
  return { run, url };
}

/** A fetch that records each request body sent and each response body received, byte for byte. */
function recordingFetch(): { fetch: typeof fetch; sent: Buffer[]; received: Buffer[]; pending: Promise<void>[] } {
  const sent: Buffer[] = [];
  const received: Buffer[] = [];
  const pending: Promise<void>[] = [];
  const f: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push(Buffer.from(init.body));
    const res = await fetch(input, init);
    if (res.body === null) return res;
    const [mine, theirs] = res.body.tee();
    pending.push(
      (async () => {
        const chunks: Buffer[] = [];
        try {
          for await (const c of mine) chunks.push(Buffer.from(c));
        } catch {
          // a stream cut off: what arrived counts
        }
        received.push(Buffer.concat(chunks));
      })(),
    );
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: f, sent, received, pending };
}

interface Results {
  tools: string[];
  echo: unknown;
  slow: unknown;
  progress: number[];
  ask: unknown;
  dropped: unknown;
  logged: unknown[];
}

/** One host-like session over Streamable HTTP: every feature the issue names, then DELETE. */
async function streamableSession(url: string, rec: ReturnType<typeof recordingFetch>): Promise<Results> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: rec.fetch,
    reconnectionOptions: { initialReconnectionDelay: 20, maxReconnectionDelay: 100, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  const client = new Client({ name: 'http-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
  const logged: unknown[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params.data));
  await client.connect(transport);
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const echo = await client.callTool({ name: 'echo', arguments: { text: 'héllo through the tap' } });
  const progress: number[] = [];
  const slow = await client.callTool({ name: 'slow', arguments: { steps: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) });
  const ask = await client.callTool({ name: 'ask', arguments: {} });
  // an event with an id must have arrived on the GET stream before it can be dropped and resumed
  await waitFor(async () => (await client.callTool({ name: 'notify', arguments: {} }), logged.length > 0), 5000, 'an event on the GET stream');
  logged.length = 0;
  const dropped = await client.callTool({ name: 'drop-get', arguments: {} });
  await waitFor(() => logged.includes('after the drop'), 5000, 'the notification replayed after the GET stream was resumed');
  await transport.terminateSession();
  await client.close();
  await Promise.all(rec.pending);
  return { tools, echo, slow, progress, ask, dropped, logged };
}

const sortedHex = (bufs: Buffer[]) => bufs.map((b) => b.toString('hex')).sort();

describe('mcp-tap http: Streamable HTTP', () => {
  let upstream: Upstream;
  let httpLog = '';
  let httpSession = '';
  beforeAll(async () => {
    upstream = await startUpstream({ mode: 'streamable' });
  });
  afterAll(async () => upstream.close());

  it('gives the results of a direct connection, relays bytes unchanged, and logs every message with its http facts', async () => {
    const direct = await streamableSession(upstream.url, recordingFetch());
    upstream.exchanges.length = 0;
    const log = join(tmp.dir, 'streamable.jsonrpc.log');
    const { run, url } = await startTap(upstream.url, log);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const rec = recordingFetch();
    const tapped = await streamableSession(url, rec);
    expect(tapped).toEqual(direct);
    expect(tapped.progress).toEqual([1, 2, 3]);
    expect(tapped.ask).toEqual({ content: [{ type: 'text', text: 'hello Ada' }] });

    // bytes: what the client sent is what the server got, what the server wrote is what the client got
    await waitFor(() => upstream.exchanges.length >= rec.received.length, 5000, 'upstream exchanges');
    expect(sortedHex(upstream.exchanges.filter((e) => e.method === 'POST').map((e) => e.requestBody))).toEqual(sortedHex(rec.sent));
    expect(sortedHex(upstream.exchanges.map((e) => Buffer.concat(e.responseBody)).filter((b) => b.length > 0))).toEqual(sortedHex(rec.received.filter((b) => b.length > 0)));

    run.child.kill('SIGTERM');
    expect((await run.exited()).code).toBe(0);
    const recs = readRecords(log);
    for (const r of recs) expect({ r, problems: validateRecord(r) }).toEqual({ r, problems: [] });
    // the run's own record stream first, then one per MCP session (its start names the run)
    const runId = recs[0]!.session;
    const sessions = new Set(recs.map((r) => r.session).filter((s) => s !== runId));
    const mcp = recs.filter((r) => r.kind !== 'event');
    const session = mcp[0]!.session;
    expect(mcp.every((r) => r.session === session), 'every message of one MCP session in one record stream').toBe(true);
    expect(sessions.size).toBe(1);
    const ofSession = recs.filter((r) => r.session === session);
    expect(ofSession[0]).toMatchObject({ event: 'start', run: runId, upstream: upstream.url });
    expect(ofSession.at(-1)).toMatchObject({ event: 'end', reason: 'deleted', pendingCount: 0 });
    // every request paired
    const requests = mcp.filter((r) => r.kind === 'request');
    for (const q of requests) expect(mcp.some((a) => (a.kind === 'response' || a.kind === 'error') && a.reqSeq === q.seq), `answer to ${String(q.method)}`).toBe(true);
    const named = requests.map((r) => String(r.target ?? r.method)).filter((n) => n !== 'notify');
    expect(named).toEqual(['initialize', 'tools/list', 'echo', 'slow', 'ask', 'elicitation/create', 'drop-get']);
    const elicit = mcp.find((r) => r.method === 'elicitation/create' && r.kind === 'request')!;
    expect(elicit.from).toBe('server');
    expect(elicit.http).toMatchObject({ method: 'POST', path: '/mcp', status: 200, stream: 'post' });
    const elicitAnswer = mcp.find((r) => r.kind === 'response' && r.reqSeq === elicit.seq)!;
    expect(elicitAnswer).toMatchObject({ from: 'client', http: { method: 'POST', stream: 'post' } });
    // progress over the POST's SSE stream, linked to its request
    const progressRecs = mcp.filter((r) => r.method === 'notifications/progress');
    expect(progressRecs).toHaveLength(3);
    for (const p of progressRecs) expect(p.http).toMatchObject({ stream: 'post', eventId: expect.any(String) });
    // the session id is masked everywhere, never in clear
    const text = readFileSync(log, 'utf8');
    const initAnswer = mcp.find((r) => r.kind === 'response' && r.method === 'initialize')!;
    expect((initAnswer.http as Rec['http'] & { sessionId: string }).sessionId).toMatch(/^\[REDACTED:mcp-session-id:[0-9a-f]{8}\]$/);
    for (const m of text.matchAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)) throw new Error(`a session id in clear: ${m[0]}`);
    // resumption: the GET that resumed names the event id it resumed after and links to that record
    const gets = ofSession.filter((r) => r.event === 'http' && (r.http as { method: string }).method === 'GET' && !('closed' in r));
    const resumed = gets.find((g) => (g.http as { eventId?: string }).eventId !== undefined);
    expect(resumed, 'a GET with Last-Event-ID').toBeDefined();
    expect(resumed!.resumes).toEqual(expect.any(Number));
    const replayed = mcp.find((r) => r.method === 'notifications/message')!;
    expect(replayed.http).toMatchObject({ method: 'GET', stream: 'get' });
    // DELETE ends the session
    expect(ofSession.some((r) => r.event === 'http' && (r.http as { method: string }).method === 'DELETE')).toBe(true);
    httpLog = log;
    httpSession = session;
  });

  it('reads like a stdio log in every reader: tail, ls, export (md, html), stats, check', async () => {
    expect(httpLog, 'the log of the test above').not.toBe('');
    const read = async (args: string[]) => {
      const r = runTap(args, { env: { NO_COLOR: '1', XDG_STATE_HOME: tmp.dir } });
      const { code } = await r.exited(30_000);
      return { code, out: r.stdout().toString('utf8'), err: r.stderr() };
    };
    const tail = await read(['tail', httpLog, '--session', httpSession, '-n', '1000']);
    expect(tail.code).toBe(0);
    expect(tail.out).toContain('elicitation/create');
    expect(tail.out).toContain('tools/call');
    const ls = await read(['ls', '--dir', tmp.dir, '--json']);
    expect(ls.code).toBe(0);
    const summaries = JSON.parse(ls.out) as Array<{ id: string; messages: number; serverName: string; ended: boolean }>;
    const mine = summaries.find((s) => s.id === httpSession)!;
    expect(mine).toMatchObject({ serverName: '127.0.0.1', ended: true });
    expect(mine.messages).toBeGreaterThan(15);
    const md = await read(['export', httpLog, '--session', httpSession, '--format', 'md']);
    expect(md.code).toBe(0);
    expect(md.out).toContain('initialize');
    const html = await read(['export', httpLog, '--session', httpSession, '--format', 'html', '-o', join(tmp.dir, 'report.html')]);
    expect(html.code).toBe(0);
    expect(readFileSync(join(tmp.dir, 'report.html'), 'utf8')).toContain('elicitation/create');
    const stats = await read(['stats', httpLog, '--session', httpSession]);
    expect(stats.code).toBe(0);
    expect(stats.out).toMatch(/tools\/call/);
    const check = await read(['check', httpLog, '--session', httpSession]);
    expect({ code: check.code, out: check.out }).toMatchObject({ code: 0 });
  });
});

describe('mcp-tap http: several hosts, auth, failures', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream({ mode: 'streamable', token: 'SECRET-TOKEN-0123456789' });
  });
  afterAll(async () => upstream.close());

  async function shortSession(url: string, text: string): Promise<unknown> {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer SECRET-TOKEN-0123456789' } } });
    const client = new Client({ name: `host-${text}`, version: '1.0.0' });
    await client.connect(transport);
    const echoes: unknown[] = [];
    for (let i = 0; i < 5; i++) echoes.push(await client.callTool({ name: 'echo', arguments: { text: `${text}-${i}` } }));
    await transport.terminateSession();
    await client.close();
    return echoes;
  }

  it('keeps two concurrent hosts apart, logs a 401 challenge, and never writes the token or cookies', async () => {
    const log = join(tmp.dir, 'auth.jsonrpc.log');
    const { run, url } = await startTap(upstream.url, log);
    // no token: the upstream's 401 and its challenge reach the host unchanged and the log as an event
    const denied = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', cookie: 'sid=COOKIE-SECRET-42' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known/);
    // an OAuth token exchange goes through to the upstream's origin; the log keeps method, path and status only
    const token = await fetch(new URL('/token?code=AUTH-CODE-SECRET-9', url), { method: 'POST', body: 'grant_type=authorization_code&code=AUTH-CODE-SECRET-9' });
    expect(await token.json()).toMatchObject({ access_token: 'OAUTH-ACCESS-TOKEN-XYZ' });
    expect(token.headers.get('set-cookie')).toContain('SET-COOKIE-SECRET-7');
    const [a, b] = await Promise.all([shortSession(url, 'alpha'), shortSession(url, 'beta')]);
    expect(JSON.stringify(a)).toContain('alpha-4');
    expect(JSON.stringify(b)).toContain('beta-4');
    run.child.kill('SIGTERM');
    expect((await run.exited()).code).toBe(0);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain('SECRET-TOKEN');
    expect(text).not.toContain('COOKIE-SECRET');
    for (const secret of ['OAUTH-ACCESS-TOKEN', 'OAUTH-REFRESH-TOKEN', 'AUTH-CODE-SECRET']) expect(text).not.toContain(secret);
    const recs = readRecords(log);
    expect(recs.find((r) => r.event === 'http' && (r.http as { path: string }).path === '/token')).toMatchObject({ http: { method: 'POST', status: 200 } });
    const challenge = recs.find((r) => r.event === 'http' && (r.http as { status: number }).status === 401)!;
    expect(challenge.challenge).toMatch(/^Bearer resource_metadata=/);
    // the refused initialize ends its connection's session: a host that signs in and retries on the same
    // connection starts a new one, so the unanswered id 1 is never paired with a later id 1
    const refusedSession = recs.filter((r) => r.session === challenge.session);
    expect(refusedSession.at(-1)).toMatchObject({ event: 'end', reason: 'rejected', pendingCount: 1 });
    expect(refusedSession.filter((r) => r.kind !== 'event').map((r) => r.method)).toEqual(['initialize']);
    // each host's messages in a session of their own, every answer paired with its own host's request
    const byHost = new Map<string, Rec[]>();
    for (const r of recs) if (r.kind !== 'event') byHost.set(r.session, [...(byHost.get(r.session) ?? []), r]);
    const hosts = [...byHost.values()].filter((rs) => rs.some((r) => r.method === 'tools/call'));
    expect(hosts).toHaveLength(2);
    for (const rs of hosts) {
      const name = JSON.stringify(rs.find((r) => r.method === 'initialize' && r.kind === 'request')!.msg).includes('host-alpha') ? 'alpha' : 'beta';
      const calls = rs.filter((r) => r.kind === 'request' && r.method === 'tools/call');
      expect(calls).toHaveLength(5);
      for (const c of calls) {
        const answer = rs.find((r) => r.kind === 'response' && r.reqSeq === c.seq)!;
        expect(JSON.stringify(answer.msg)).toContain(`${name}-`);
        expect(JSON.stringify(c.msg)).toContain(`${name}-`);
      }
      expect(rs.every((r) => JSON.stringify(r.msg ?? '').includes(name === 'alpha' ? 'beta-' : 'alpha-') === false)).toBe(true);
    }
  });

  it('answers 502 with a one-line reason when the upstream is down, and logs it', async () => {
    const down = await startUpstream({ mode: 'streamable' });
    const downUrl = down.url;
    await down.close();
    const log = join(tmp.dir, 'down.jsonrpc.log');
    const { run, url } = await startTap(downUrl, log);
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(res.status).toBe(502);
    const body = await res.text();
    expect(body).toMatch(/^mcp-tap: upstream http:\/\/127\.0\.0\.1:\d+ unreachable \(ECONNREFUSED [^)]*\)\n$/);
    await run.waitStderr('unreachable');
    run.child.kill('SIGTERM');
    await run.exited();
    const recs = readRecords(log);
    const ev = recs.find((r) => r.event === 'upstream-error')!;
    expect(ev).toMatchObject({ http: { method: 'POST', path: '/mcp', status: 502 }, error: expect.stringContaining('ECONNREFUSED') });
    expect(recs.find((r) => r.kind === 'request')).toMatchObject({ method: 'ping', http: { method: 'POST' } });
  });

  it('says so in one line and exits 69 when the port is taken; a bad URL is a usage error', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as import('node:net').AddressInfo).port;
    try {
      const run = runTap(['http', upstream.url, '--port', String(port), '--no-log']);
      expect((await run.exited()).code).toBe(69);
      expect(run.stderr()).toBe(`mcp-tap: port ${port} on 127.0.0.1 is in use; pick another with --port\n`);
    } finally {
      busy.close();
    }
    const bad = runTap(['http', 'ftp://example.com/mcp', '--no-log']);
    expect((await bad.exited()).code).toBe(2);
    expect(bad.stderr()).toMatch(/^mcp-tap: the upstream URL must be http: or https:, got ftp:\n$/);
    // the sinks' flags as in proxy mode: --ship-options belongs to the --ship before it
    const sinks = runTap(['http', upstream.url, '--ship-options', '{}', '--ship', 'pino-roll', '--no-log']);
    expect((await sinks.exited()).code).toBe(2);
    expect(sinks.stderr()).toBe('mcp-tap: --ship-options goes after the --ship it configures\n');
  });

  it('refuses a non-loopback Host or Origin with 403 before anything reaches the upstream', async () => {
    const log = join(tmp.dir, 'refused.jsonrpc.log');
    const { run, url } = await startTap(upstream.url, log);
    const before = upstream.exchanges.length;
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      });
    expect(await status({ host: 'evil.example:80' })).toBe(403);
    expect(await status({ origin: 'http://evil.example' })).toBe(403);
    // a sandboxed iframe or a data: page of any site sends Origin: null
    expect(await status({ origin: 'null' })).toBe(403);
    expect(await status({ origin: 'http://localhost:3000' })).toBe(401); // loopback origin passes; the upstream wants a token
    // what only a raw client sends: a target in absolute form (naming another host), a second Host line
    const { connect } = await import('node:net');
    const target = new URL(url);
    const rawStatus = (head: string) =>
      new Promise<string>((resolve, reject) => {
        const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
        const sock = connect(Number(target.port), '127.0.0.1');
        let got = '';
        sock.on('data', (d: Buffer) => (got += d.toString('latin1')));
        sock.on('close', () => resolve(got.split(' ')[1] ?? ''));
        sock.on('error', reject);
        sock.write(`${head}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      });
    expect(await rawStatus(`POST http://other.example${target.pathname} HTTP/1.1\r\nHost: ${target.host}`)).toBe('400');
    expect(await rawStatus(`POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nHost: evil.example`)).toBe('400');
    expect(upstream.exchanges.length).toBe(before + 1);
    run.child.kill('SIGTERM');
    await run.exited();
    const refused = readRecords(log).filter((r) => r.event === 'refused');
    expect(refused.map((r) => r.reason)).toEqual([
      expect.stringContaining('evil.example:80'),
      expect.stringContaining('http://evil.example'),
      'Origin "null" is not a loopback origin',
      `the request target "http://other.example${target.pathname}" is not a path`,
      'the request has 2 Host header lines',
    ]);
    expect(refused.map((r) => (r.http as { status: number }).status)).toEqual([403, 403, 403, 400, 400]);
  });
});

describe('mcp-tap http: legacy HTTP+SSE', () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream({ mode: 'sse' });
  });
  afterAll(async () => upstream.close());

  async function legacySession(url: string): Promise<unknown[]> {
    const client = new Client({ name: 'http-e2e-sse', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new SSEClientTransport(new URL(url)));
    const out: unknown[] = [];
    out.push((await client.listTools()).tools.map((t) => t.name).sort());
    out.push(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }));
    const progress: number[] = [];
    out.push(await client.callTool({ name: 'slow', arguments: { steps: 2 } }, undefined, { onprogress: (p) => void progress.push(p.progress) }));
    out.push(progress);
    out.push(await client.callTool({ name: 'ask', arguments: {} }));
    await client.close();
    return out;
  }

  it('relays the SSE stream and its POSTs, and logs the session paired, answers on the GET stream', async () => {
    const direct = await legacySession(upstream.url);
    const log = join(tmp.dir, 'legacy.jsonrpc.log');
    const { run, url } = await startTap(upstream.url, log);
    expect(url).toMatch(/\/sse$/);
    const tapped = await legacySession(url);
    expect(tapped).toEqual(direct);
    expect(tapped[4]).toEqual({ content: [{ type: 'text', text: 'hello Grace' }] });
    await waitFor(() => readFileSync(log, 'utf8').includes('"reason":"stream-closed"'), 5000, 'the session to end with its SSE stream');
    run.child.kill('SIGTERM');
    expect((await run.exited()).code).toBe(0);
    const recs = readRecords(log);
    for (const r of recs) expect(validateRecord(r)).toEqual([]);
    const mcp = recs.filter((r) => r.kind !== 'event');
    expect(new Set(mcp.map((r) => r.session)).size).toBe(1);
    const requests = mcp.filter((r) => r.kind === 'request');
    expect(requests.map((r) => String(r.target ?? r.method))).toEqual(['initialize', 'tools/list', 'echo', 'slow', 'ask', 'elicitation/create']);
    for (const q of requests) expect(mcp.some((a) => a.kind === 'response' && a.reqSeq === q.seq), `answer to ${String(q.method)}`).toBe(true);
    // answers come on the GET stream; the endpoint event is logged without its session id
    const answers = mcp.filter((r) => r.kind === 'response' && r.from === 'server');
    for (const a of answers) expect(a.http).toMatchObject({ method: 'GET', path: '/sse', stream: 'get' });
    const endpoint = recs.find((r) => r.event === 'http' && 'endpoint' in r)!;
    expect(endpoint.endpoint).toBe('/messages');
    const posts = mcp.filter((r) => r.from === 'client');
    for (const p of posts) expect(p.http).toMatchObject({ method: 'POST', path: '/messages', stream: 'post' });
    // the endpoint's query holds the session id: its value is masked wherever the log names the query
    expect(readFileSync(log, 'utf8')).not.toMatch(/sessionId=(?!\[REDACTED:query\])/);
    // the legacy session lives as long as its SSE stream: the host closing it ends the session
    const session = recs.filter((r) => r.session === mcp[0]!.session);
    expect(session.at(-1)).toMatchObject({ event: 'end', reason: 'stream-closed', pendingCount: 0 });
    expect(session.at(-3)).toMatchObject({ event: 'http', closed: true, http: { method: 'GET', path: '/sse' } });
    expect(session.at(-2)).toMatchObject({ event: 'exchange', http: { method: 'GET', path: '/sse', status: 200 } });
  });
});

describe('mcp-tap http: HTTPS upstream', () => {
  it('verifies the upstream with NODE_EXTRA_CA_CERTS, and answers 502 naming the certificate problem without it', async () => {
    const { createServer } = await import('node:https');
    const tls = join(ROOT, 'test', 'fixtures', 'tls');
    const server = createServer({ key: readFileSync(join(tls, 'localhost-test-only.key')), cert: readFileSync(join(tls, 'localhost-test-only.crt')) }, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const upstreamUrl = `https://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/mcp`;
    const ping = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    try {
      const trusted = runTap(['http', upstreamUrl, '--port', '0', '--no-log'], { env: { NODE_EXTRA_CA_CERTS: join(tls, 'localhost-test-only.crt') } });
      taps.push(trusted);
      await trusted.waitStderr(/listening on (\S+)/);
      const ok = await ping(/listening on (\S+)/.exec(trusted.stderr())![1]!);
      expect({ status: ok.status, body: await ok.text() }).toEqual({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":{}}' });
      const untrusted = runTap(['http', upstreamUrl, '--port', '0', '--no-log'], { env: { NODE_EXTRA_CA_CERTS: '' } });
      taps.push(untrusted);
      await untrusted.waitStderr(/listening on (\S+)/);
      const bad = await ping(/listening on (\S+)/.exec(untrusted.stderr())![1]!);
      expect(bad.status).toBe(502);
      expect(await bad.text()).toMatch(/^mcp-tap: upstream https:\/\/127\.0\.0\.1:\d+ unreachable \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)[^\n]*\)\n$/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('mcp-tap http: an upstream that breaks off', () => {
  it('cuts the host stream as the upstream did and logs the event after the message that made it', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n', () => setTimeout(() => res.socket?.destroy(), 50));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const log = join(tmp.dir, 'broken.jsonrpc.log');
    try {
      const { run, url } = await startTap(`http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/mcp`, log);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}' });
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      await run.waitStderr('broke off');
      run.child.kill('SIGTERM');
      await run.exited();
      const recs = readRecords(log).filter((r) => r.session !== readRecords(log)[0]!.session);
      expect(recs.map((r) => r.event ?? r.method)).toEqual(['start', 'tools/call', 'notifications/message', 'upstream-error', 'exchange', 'end']);
      expect(recs[3]).toMatchObject({ error: expect.stringMatching(/^upstream http:\/\/127\.0\.0\.1:\d+ broke off/) });
      expect(recs[4]).toMatchObject({ http: { status: 200 }, cut: true, error: expect.stringMatching(/broke off/) });
      expect(recs[5]).toMatchObject({ pending: [{ from: 'client', id: 1, method: 'tools/call' }] });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('mcp-tap http: compressed bodies', () => {
  it('forwards gzip bodies as sent and logs the decoded messages (JSON and SSE)', async () => {
    const { createServer, request } = await import('node:http');
    const { gzipSync, createGzip, constants } = await import('node:zlib');
    const init = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"gzip-server","version":"1"}}}');
    const jsonBody = gzipSync(init);
    const sent: Buffer[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.headers['x-want'] === 'sse') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          const gz = createGzip();
          gz.on('data', (c: Buffer) => {
            sent.push(c);
            res.write(c);
          });
          gz.on('end', () => res.end());
          gz.write('event: message\nid: e1\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
          gz.flush(constants.Z_SYNC_FLUSH, () => {
            gz.end('id: e2\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[]}}\n\n');
          });
          return;
        }
        sent.push(jsonBody);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'mcp-session-id': 'gz-session' }).end(jsonBody);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as import('node:net').AddressInfo).port;
    try {
      const log = join(tmp.dir, 'gzip.jsonrpc.log');
      const { run, url } = await startTap(`http://127.0.0.1:${port}/mcp`, log);
      const post = (body: string, headers: Record<string, string>) =>
        new Promise<{ headers: import('node:http').IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', ...headers } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          });
          req.on('error', reject);
          req.end(body);
        });
      const first = await post('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}', {});
      expect(first.headers['content-encoding']).toBe('gzip');
      expect(first.body.equals(jsonBody)).toBe(true);
      const second = await post('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}', { 'x-want': 'sse', 'mcp-session-id': 'gz-session' });
      expect(second.body.equals(Buffer.concat(sent.slice(1)))).toBe(true);
      run.child.kill('SIGTERM');
      await run.exited();
      const recs = readRecords(log);
      const initAnswer = recs.find((r) => r.kind === 'response' && r.method === 'initialize')!;
      expect(initAnswer.msg).toEqual(JSON.parse(init.toString()));
      expect(initAnswer.bytes).toBe(init.length);
      // decoding takes a while, yet records keep arrival order: no false "before initialize" finding
      expect(recs.flatMap((r) => (r.notes as unknown[] | undefined) ?? [])).toEqual([]);
      expect(recs.find((r) => r.method === 'notifications/progress')).toMatchObject({ http: { eventId: 'e1', stream: 'post' }, reqSeq: expect.any(Number) });
      expect(recs.find((r) => r.kind === 'response' && r.method === 'tools/call')).toMatchObject({ http: { eventId: 'e2' } });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('mcp-tap http: the log removed just before shutdown', () => {
  it('opens the path anew at the end and states the loss there, before the end record', async () => {
    const upstream = await startUpstream({ mode: 'streamable' });
    try {
      const log = join(tmp.dir, 'removed-late.jsonrpc.log');
      const { run, url } = await startTap(upstream.url, log);
      await streamableSession(url, recordingFetch());
      await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('"kind":"response"'), 5000, 'responses in the log');
      // removed, then the tap told to stop at once: its periodic path check (once a second) may not have run
      unlinkSync(log);
      run.child.kill('SIGTERM');
      await run.exited();
      expect(existsSync(log), run.stderr()).toBe(true);
      const records = readRecords(log);
      const gap = records.findIndex((r) => r.event === 'gap' && r.reason === 'file-removed');
      expect(gap, JSON.stringify(records.map((r) => r.event ?? r.kind))).toBeGreaterThanOrEqual(0);
      expect(records.at(-1)).toMatchObject({ event: 'end' });
      expect(gap).toBeLessThan(records.length - 1);
    } finally {
      await upstream.close();
    }
  });
});
