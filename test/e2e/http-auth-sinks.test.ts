/**
 * HTTP mode's sign-in and sinks (issue 33), with the official SDK client signing in through the tap to
 * a bearer-protected upstream that hosts its own OAuth authorization server: 401 → protected-resource
 * metadata → authorization-server metadata → registration → authorization → token → retry OK shows as
 * one chain in the log, `tail`, the HTML report (in Debian's chromium) and the live UI's rows; `--otlp`
 * to a real OTLP receiver (@elastic/mockotlpserver) gets the session's spans, joined to the caller's
 * trace by the `traceparent` header and by `_meta`; `--ship` gets every record. Planted secrets — the
 * access and refresh tokens, the authorization code, the client secret, cookies both ways, the session
 * id, also echoed back in a tool result — appear in none of the outputs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { chromium } from 'playwright-core';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';
import { waitFor } from '../helpers/wait.js';
import { startUpstream, type Upstream } from '../helpers/http-upstream.js';
import { harProblems, type Har } from '../helpers/har.js';
import { browserTests, CHROMIUM } from '../helpers/browser.js';
import { makeUiHandler } from '../../src/ui/handler.js';
import { LogWatch } from '../../src/ui/log-watch.js';
import type { SessionRow } from '../../src/session-view/row.js';

const require = createRequire(import.meta.url);
const { MockOtlpServer, normalizeTrace } = require('@elastic/mockotlpserver') as {
  MockOtlpServer: new (o: object) => { start(): Promise<void>; close(): Promise<void>; httpUrl: URL };
  normalizeTrace: (t: unknown) => Trace;
};
interface NSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}
interface Trace {
  resourceSpans: { scopeSpans: { spans: NSpan[] }[] }[];
}

const ACCESS = 'ACCESS-TOKEN-PLANTED-5f0c9a1e7d';
const REFRESH = 'REFRESH-TOKEN-PLANTED-2b8e4c6a90';
const CODE = 'AUTH-CODE-PLANTED-77aa3c1d';
const CLIENT_SECRET = 'CLIENT-SECRET-PLANTED-c0ffee42';
const COOKIE = 'COOKIE-PLANTED-9d2e71b3';
const HEADER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_SPAN = '00f067aa0ba902b7';
const META_TRACE = '0af7651916cd43dd8448eb211c80319c';
const META_SPAN = 'b7ad6b7169203331';

const tmp = tempDir('mcp-tap-http-auth-');
let receiver: InstanceType<typeof MockOtlpServer>;
const received: Trace[] = [];
const rawPayloads: string[] = [];
let upstream: Upstream;
let tapOrigin = '';
let tap: TapRun;
let sessionId = '';
const log = join(tmp.dir, 'auth.jsonrpc.log');
const shipDir = join(tmp.dir, 'shipped');
let whoami = '';

/** The host's OAuth side, as a desktop host keeps it: registration, PKCE verifier, tokens; the browser step done by fetching the authorization URL. */
class HostAuth implements OAuthClientProvider {
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  code: string | null = null;
  constructor(private readonly f: typeof fetch) {}
  get redirectUrl(): string {
    return 'http://127.0.0.1:9/callback';
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'auth-e2e', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(i: OAuthClientInformationMixed) {
    this.info = i;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: OAuthTokens) {
    this.saved = t;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    const res = await this.f(url, { redirect: 'manual' });
    this.code = new URL(res.headers.get('location')!).searchParams.get('code');
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The host's fetch: a cookie on every request, and the caller's trace in a traceparent header. */
const hostFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('cookie', `host_session=${COOKIE}`);
  headers.set('traceparent', `00-${HEADER_TRACE}-${HEADER_SPAN}-01`);
  return fetch(input, { ...init, headers });
};

beforeAll(async () => {
  receiver = new MockOtlpServer({
    services: ['http'],
    httpHostname: '127.0.0.1',
    httpPort: 0,
    logLevel: 'error',
    onTrace: (t: unknown) => {
      rawPayloads.push(JSON.stringify(t));
      received.push(normalizeTrace(t));
    },
  });
  await receiver.start();
  upstream = await startUpstream({ mode: 'streamable', token: ACCESS, oauth: { publicOrigin: () => tapOrigin, code: CODE, clientSecret: CLIENT_SECRET, refreshToken: REFRESH } });
  tap = runTap(
    ['http', upstream.url, '--port', '0', '--log', log, '--otlp', receiver.httpUrl.toString(), '--ship', 'pino/file', '--ship-options', JSON.stringify({ destination: join(shipDir, 'records.log'), mkdir: true })],
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'auth-e2e' } },
  );
  await tap.waitStderr(/listening on (\S+)/);
  tapOrigin = new URL(/listening on (\S+)/.exec(tap.stderr())![1]!).origin;

  // the host connects, is told to sign in, signs in through the tap, and retries
  const auth = new HostAuth(hostFetch);
  const url = new URL(`${tapOrigin}/mcp`);
  const first = new StreamableHTTPClientTransport(url, { authProvider: auth, fetch: hostFetch });
  await expect(new Client({ name: 'auth-e2e', version: '1.0.0' }).connect(first)).rejects.toThrow(/nauthorized/);
  expect(auth.code).toBe(CODE);
  await first.finishAuth(auth.code!);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: auth, fetch: hostFetch });
  const client = new Client({ name: 'auth-e2e', version: '1.0.0' });
  await client.connect(transport);
  sessionId = transport.sessionId!;
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: { text: 'signed in' }, _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-01` } });
  whoami = JSON.stringify(await client.callTool({ name: 'whoami', arguments: {} }));
  await transport.terminateSession();
  await client.close();
  tap.child.kill('SIGTERM');
  expect((await tap.exited()).code).toBe(0);
}, 60_000);

afterAll(async () => {
  tap?.kill();
  await upstream?.close();
  await receiver?.close();
  tmp.cleanup();
});

const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });

const PLANTED = () => [ACCESS, REFRESH, CODE, CLIENT_SECRET, COOKIE, sessionId];
const leaks = (text: string): string[] => PLANTED().filter((s) => text.includes(s));
const spans = (): NSpan[] => received.flatMap((t) => t.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));

describe('mcp-tap http: a bearer-protected upstream, signed in through the tap', () => {
  it('the secrets passed through unchanged: the session worked with them', () => {
    // the leaky tool echoed the token, the session id and the cookie: the relay changed nothing
    expect(whoami).toContain(ACCESS);
    expect(whoami).toContain(sessionId);
    expect(whoami).toContain(COOKIE);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs the sign-in as one chain in the session it unlocked: 401 → metadata → register → authorize → token → retry OK', () => {
    const recs = readRecords(log);
    const chains = recs.filter((r) => r.event === 'auth');
    expect(chains).toHaveLength(1);
    const chain = chains[0]!;
    expect(chain.ok).toBe(true);
    const steps = (chain['chain'] as Array<{ step: string; status: number; path: string }>).map((l) => `${l.step} ${l.status} ${l.path}`);
    expect(steps[0]).toBe('challenge 401 /mcp');
    expect(steps.at(-1)).toBe('retry 200 /mcp');
    const kinds = steps.map((s) => s.split(' ')[0]);
    for (const k of ['resource-metadata', 'as-metadata', 'register', 'authorize', 'token']) expect(kinds, k).toContain(k);
    expect(kinds.indexOf('token')).toBeGreaterThan(kinds.indexOf('authorize'));
    const token = (chain['chain'] as Array<{ step: string; grant?: string }>).find((l) => l.step === 'token')!;
    expect(token.grant).toBe('authorization_code');
    // in the session of the retry, whose first request is the initialize that got through
    const session = recs.filter((r) => r.session === chain.session);
    expect(session.find((r) => r.kind === 'request')).toMatchObject({ method: 'initialize' });
    // the 401 before it: an http event with its challenge parsed
    const denied = recs.find((r) => r.event === 'http' && (r.http as { status?: number }).status === 401)!;
    expect(denied['auth']).toEqual({ scheme: 'Bearer', resourceMetadata: `${tapOrigin}/.well-known/oauth-protected-resource/mcp`, scope: 'mcp' });
    // the token exchange outside MCP: counted as not decoded, its body never logged
    const tokenExchange = recs.find((r) => r.event === 'exchange' && (r.http as { path: string }).path === '/token')!;
    expect(tokenExchange['notDecoded']).toMatch(/^not decoded: an OAuth token exchange/);
    const runEnd = recs.find((r) => r.event === 'end' && r.session === recs[0]!.session)!;
    expect(runEnd['notDecoded']).toBeGreaterThanOrEqual(5);
  });

  it('tail shows the chain', async () => {
    const id = readRecords(log).find((r) => r.event === 'auth')!.session;
    const r = await cli(['tail', log, '--session', id, '-n', '1000']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sign-in 401 → resource metadata → auth server metadata → register → authorize → (resource metadata → auth server metadata → )?token → retry OK · \d/);
  });

  it('--otlp: the receiver gets the HTTP session spans, joined to the caller trace by header and by _meta', async () => {
    const recs = readRecords(log);
    const requests = recs.filter((r) => r.kind === 'request' && r.session === recs.find((x) => x.event === 'auth')!.session);
    await waitFor(() => requests.every((q) => spans().some((s) => s.attributes['jsonrpc.request.id'] === String(q['id']) && s.attributes['mcp.session.id'] === q.session)), 10_000, 'a span per request');
    const ofSession = spans().filter((s) => s.attributes['mcp.session.id'] === requests[0]!.session);
    const list = ofSession.find((s) => s.name === 'tools/list')!;
    expect([list.traceId, list.parentSpanId]).toEqual([HEADER_TRACE, HEADER_SPAN]);
    const echo = ofSession.find((s) => s.name === 'tools/call echo')!;
    expect([echo.traceId, echo.parentSpanId]).toEqual([META_TRACE, META_SPAN]);
    expect(echo.attributes['network.transport']).toBe('tcp');
    const root = ofSession.find((s) => s.name.startsWith('mcp-tap '))!;
    expect(root.attributes['mcp_tap.upstream']).toBe(upstream.url);
    expect(recs.some((r) => r.event === 'sink-gap')).toBe(false);
  });

  it('--ship: the transport got every record the log has', () => {
    const files = readdirSync(shipDir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(shipDir, files[0]!), 'utf8')).toBe(readFileSync(log, 'utf8'));
  });

  it('no token, code, client secret, cookie or session id in any output: log, HAR, JSON, JSONL, Markdown, HTML, OTLP export, tail, stats, ls, audit, check, UI, OTLP, ship', async () => {
    const outputs: Record<string, string> = {
      log: readFileSync(log, 'utf8'),
      ship: readdirSync(shipDir).map((f) => readFileSync(join(shipDir, f), 'utf8')).join(''),
      otlp: rawPayloads.join('\n'),
    };
    const readers = [
      ['har', ['export', log, '--format', 'har']],
      ['json', ['export', log, '--session', 'all', '--format', 'json']],
      ['md', ['export', log, '--session', 'all', '--format', 'md']],
      ['html', ['export', log, '--session', 'all', '--format', 'html']],
      ['tail', ['tail', log, '--session', 'all', '-n', '10000', '--full']],
      ['tail --json', ['tail', log, '--session', 'all', '--json']],
      ['har unredacted', ['export', log, '--format', 'har', '--no-redact']],
      ['jsonl', ['export', log, '--session', 'all', '--format', 'jsonl']],
      ['otlp export', ['export', log, '--session', 'all', '--format', 'otlp']],
      ['stats', ['stats', log, '--session', 'all']],
      ['stats --json', ['stats', log, '--session', 'all', '--json']],
      ['ls', ['ls', '--dir', tmp.dir, '--json']],
      ['audit', ['audit', log, '--format', 'json']],
    ] as const;
    const chainSession = readRecords(log).find((r) => r.event === 'auth')!.session;
    const checks = [
      ['check', ['check', log, '--session', chainSession]],
      ['check json', ['check', log, '--session', chainSession, '--format', 'json']],
      ['check sarif', ['check', log, '--session', chainSession, '--format', 'sarif']],
    ] as const;
    const results = await Promise.all(readers.map(([, args]) => cli([...args])));
    readers.forEach(([name], i) => {
      expect(results[i]!.code, `${name}: ${results[i]!.stderr}`).toBe(0);
      outputs[name] = results[i]!.stdout;
    });
    // check exits 1 on what it finds (the leaky tool's credential in a result): its report is the output
    const checked = await Promise.all(checks.map(([, args]) => cli([...args])));
    checks.forEach(([name], i) => {
      expect([0, 1], `${name}: ${checked[i]!.stderr}`).toContain(checked[i]!.code);
      outputs[name] = checked[i]!.stdout + checked[i]!.stderr;
    });
    expect(harProblems(JSON.parse(outputs['har']!) as Har)).toEqual([]);
    // the UI: every row and every body of every session, as the page gets them
    const ac = new AbortController();
    const watch = new LogWatch({ files: [log], signal: ac.signal, pollMs: 50 });
    await watch.start();
    const handle = makeUiHandler({ token: 'ui-token-0123456789abcdef', port: 40000, watch, page: { html: '<p>page</p>', csp: "default-src 'none'" } });
    const ask = async (path: string) => (await handle(new Request(`http://127.0.0.1:40000${path}`, { headers: { host: '127.0.0.1:40000', cookie: 'mcp-tap-ui-40000=ui-token-0123456789abcdef' } }))).text();
    let ui = await ask('/api/sessions');
    for (const s of new Set(readRecords(log).map((r) => r.session))) {
      const rows = await ask(`/api/rows?log=0&session=${encodeURIComponent(s)}`);
      ui += rows;
      for (const line of rows.split('\n').filter(Boolean)) ui += await ask(`/api/body?log=0&session=${encodeURIComponent(s)}&seq=${(JSON.parse(line) as SessionRow).s}`);
    }
    ac.abort();
    outputs['ui'] = ui;
    expect(ui).toMatch(/401 → resource metadata.* → retry OK/);
    for (const [name, text] of Object.entries(outputs)) {
      expect(text.length, `${name} has content`).toBeGreaterThan(100);
      expect({ name, leaks: leaks(text) }).toEqual({ name, leaks: [] });
    }
    // what the log says instead: the credential's scheme, the session's fingerprint
    expect(outputs['log']).toContain('Bearer [REDACTED:authorization]');
    expect(outputs['log']).toMatch(/host_session=\[REDACTED:cookie\]/);
  });

  it.skipIf(browserTests() === 'skip')('the HTML report shows the chain in its message list', async () => {
    if (browserTests() === 'fail') throw new Error(`${CHROMIUM} is missing: this test needs Debian's chromium (.ci/run installs it)`);
    const id = readRecords(log).find((r) => r.event === 'auth')!.session;
    const out = join(tmp.dir, 'auth.html');
    expect((await cli(['export', log, '--session', id, '--format', 'html', '-o', out])).code).toBe(0);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(out).href);
      await page.waitForFunction(() => (window as unknown as { __report?: { ready?: boolean } }).__report?.ready === true, null, { timeout: 30_000 });
      const text = await page.$$eval('#list .lrow', (els) => els.map((e) => (e as HTMLElement).innerText).join('\n'));
      expect(text).toMatch(/401 → resource metadata.* → token → retry OK/);
      expect(leaks(await page.content())).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
