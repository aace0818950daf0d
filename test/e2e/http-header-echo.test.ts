/**
 * HTTP mode, house rule 7 over the wire: a secret header's value (the Authorization credential, an
 * X-Api-Key, a cookie) that comes back in a body — an upstream echoing it in a tool result as a JSON
 * response or as an SSE frame, in a JSON-RPC error message, spelled raw, with `\/`, as `\uXXXX` escapes,
 * inside JSON text inside a string; or the client sending it inside its own JSON-RPC message — never
 * reaches the log. The official SDK client sends the headers through the built CLI (`mcp-tap http`) to a
 * hand-written upstream (test/fixtures/servers/echo-headers-http.mjs), both real child processes; the
 * relay delivers the values unchanged, the log and what the readers print hold only the markers. The
 * same for the spellings of a secret the headers do not show as such: a `Basic` credential's decoded
 * `user:password` and password, a secret query value of the MCP URL, an OAuth redirect's code in its
 * `Location` — each also percent-encoded. Secret header values too short to mask in bodies are still
 * masked in the header lists. And the order: a request whose URL and headers carry secrets never seen
 * before, repeated by its own message, and a response whose own `Set-Cookie` or `Link` its own body
 * (JSON, or an SSE event) repeats — each learned before the body it masks is written; and a response
 * whose `Link` of 200 signed URLs does not push out the token of the request it answers, which its body
 * repeats.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runTap, type TapRun } from '../helpers/run-tap.js';
import { CLI, ROOT, fixture, tempDir } from '../helpers/paths.js';
import { readRecords, type Rec } from '../helpers/log.js';
import { waitDead, waitFor } from '../helpers/wait.js';

/** The credential of `Authorization: Bearer …`, with `/` and `+` so that `\/` is one of its spellings. */
const TOKEN = 'PLANTED-bearer/9c1e+7a44d0b2==';
const KEY = 'xak-PLANTED-51d3e0b7a9f2';
const COOKIE = 'COOKIE-PLANTED-4a7d2c91';
/** A Basic credential: a password with `:`, `/`, `+` and `é`, so its decoded and percent-encoded spellings differ. */
const BASIC_PASSWORD = 'pw:PLANTED/basic+é9e2c';
const BASIC_PAIR = `alice:${BASIC_PASSWORD}`;
const BASIC = Buffer.from(BASIC_PAIR).toString('base64');
/** A secret query value of the MCP URL the host uses, and the code of an OAuth redirect's Location. */
const QUERY_KEY = 'qk-PLANTED/51e0+aa93';
const CODE = 'AUTH-CODE/PLANTED+c0de77';
/** Secrets a response's own headers carry (a cookie it sets, a signed link), repeated by its own body. */
const SERVER_COOKIE = 'SRV-COOKIE-PLANTED-7e1f';
const LINK_SIG = 'LINK-SIG-PLANTED-c9d4';
/** Secrets first seen in the URL and headers of the very request whose own message repeats them. */
const FRESH = { token: 'FRESH-TOKEN-PLANTED-2b8e', key: 'FRESH-KEY-PLANTED-6d0a', password: 'FRESH-PASSWORD-PLANTED-91f3' };
/** A redirect's state: not a secret-named parameter, so a body that repeats it keeps it. */
const STATE = 'state-value-1234';
/** Secret header values under 8 characters: masked in the header lists, not in bodies. */
const SHORT = { key: 'k~7!', cookie: 'Q~x9', sid: 'Z~1', basic: 'u:~!' };
const PLANTED = [TOKEN, KEY, COOKIE, BASIC, BASIC_PAIR, BASIC_PASSWORD, QUERY_KEY, CODE, SERVER_COOKIE, LINK_SIG, ...Object.values(FRESH)];
const KEY_MARK = '[REDACTED:header:x-api-key]';
const AUTH_MARK = '[REDACTED:authorization]';

const tmp = tempDir('mcp-tap-http-echo-');
const log = join(tmp.dir, 'echo.jsonrpc.log');
let upstream: ChildProcess | undefined;
let tap: TapRun | undefined;
const results: Record<string, string> = {};
let failMessage = '';

/** One level of JSON string escapes decoded, left to right (a test-side decoder, not the one under test). */
function decodeOnce(text: string): string {
  const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, c: string) => (hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (simple[c] ?? c)));
}

/** A value as it is, percent-encoded and in base64. */
const spellings = (s: string): string[] => [s, encodeURIComponent(s), Buffer.from(s).toString('base64')];

/** The planted values `text` holds in any spelling (spellings()), as it is or after up to five levels of escapes decoded. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  let t = text;
  for (let level = 0; level <= 5; level++) {
    for (const s of PLANTED) if (spellings(s).some((f) => t.includes(f))) found.add(s);
    t = decodeOnce(t);
  }
  return [...found];
}

/**
 * The lines the upstream writes for one echoed secret (`spelled` in the fixture) as a reader decodes
 * them: each spelling reads as `value`, the percent-encoded one as `pct` (the host's) or the marker (the log's).
 */
const spelledLines = (label: string, value: string, pct = value): string[] => [
  `${label}: ${value}`,
  `${label}-u: ${value}`,
  `${label}-pct: ${pct}`,
  `${label}-nested: ${JSON.stringify({ [label]: value })}`,
  `${label}-nested-u: ${JSON.stringify({ [label]: value })}`,
];

const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });

const textOf = (r: unknown): string => ((r as { content: Array<{ text: string }> }).content[0]?.text ?? '');

beforeAll(async () => {
  const child = spawn(process.execPath, [fixture('echo-headers-http.mjs')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ECHO_AUTH_CODE: CODE, ECHO_SERVER_COOKIE: SERVER_COOKIE, ECHO_LINK_SIG: LINK_SIG } });
  upstream = child;
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (out += s));
  const port = await waitFor(() => /^(\d+)\n/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : null), 20_000, 'the echo upstream to print its port');
  expect(port).not.toBe('exited');

  tap = runTap(['http', `http://127.0.0.1:${port}/mcp`, '--port', '0', '--log', log]);
  await tap.waitStderr(/listening on (\S+)/, 20_000);
  const url = new URL(/listening on (\S+)/.exec(tap.stderr())![1]!);

  // the host: a bearer token, an API key and a cookie on every request
  const headers = { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': KEY, Cookie: `sid=${COOKIE}` };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'header-echo', version: '1.0.0' });
  await client.connect(transport);
  // the client sends the key inside its own message
  results['echo'] = textOf(await client.callTool({ name: 'echo', arguments: { text: `my key is ${KEY}, my token ${TOKEN}` } }));
  results['whoami'] = textOf(await client.callTool({ name: 'whoami', arguments: {} }));
  results['whoami-sse'] = textOf(await client.callTool({ name: 'whoami-sse', arguments: {} }));
  for (const tool of ['cookie-back', 'link-back-sse', 'link-flood']) results[tool] = textOf(await client.callTool({ name: tool, arguments: {} }));
  await client.callTool({ name: 'fail', arguments: {} }).catch((e: unknown) => (failMessage = e instanceof Error ? e.message : String(e)));
  await transport.terminateSession();
  await client.close();

  // a second host that sends no secret header: the upstream repeats the key the first one sent
  const bare = new StreamableHTTPClientTransport(url);
  const second = new Client({ name: 'header-echo-bare', version: '1.0.0' });
  await second.connect(bare);
  results['recall'] = textOf(await second.callTool({ name: 'recall', arguments: {} }));
  await bare.terminateSession();
  await second.close();

  // an OAuth redirect through the tap: its Location carries the code
  const redirect = await fetch(new URL(`/authorize?response_type=code&client_id=c1&state=${STATE}`, url), { redirect: 'manual' });
  results['location'] = redirect.headers.get('location') ?? '';
  // a host that signs in with Basic, its MCP URL holding an API key
  const keyed = new URL(url);
  keyed.searchParams.set('api_key', QUERY_KEY);
  const basic = new StreamableHTTPClientTransport(keyed, { requestInit: { headers: { Authorization: `Basic ${BASIC}` } } });
  const third = new Client({ name: 'header-echo-basic', version: '1.0.0' });
  await third.connect(basic);
  for (const tool of ['whoami-basic', 'whoami-query', 'recall-code']) results[tool] = textOf(await third.callTool({ name: tool, arguments: {} }));
  // the client repeats the URL's key and its password in its own message
  results['echo-basic'] = textOf(await third.callTool({ name: 'echo', arguments: { text: `key ${QUERY_KEY} password ${BASIC_PASSWORD}` } }));
  await basic.terminateSession();
  await third.close();

  // one request whose URL and headers carry secrets never seen before, and whose own message repeats them
  const fresh = new URL(url);
  fresh.searchParams.set('access_token', FRESH.token);
  const freshCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: `fresh ${FRESH.token} ${FRESH.key} ${FRESH.password}` } } };
  const freshHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': FRESH.key, authorization: `Basic ${Buffer.from(`bob:${FRESH.password}`).toString('base64')}` };
  results['fresh'] = textOf(((await (await fetch(fresh, { method: 'POST', headers: freshHeaders, body: JSON.stringify(freshCall) })).json()) as { result: unknown }).result);

  // a host whose secret header values are all short (a cookie without a name among them)
  const shortHeaders = { Authorization: `Basic ${Buffer.from(SHORT.basic).toString('base64')}`, 'X-Api-Key': SHORT.key, Cookie: `${SHORT.cookie}; sid=${SHORT.sid}` };
  const short = new StreamableHTTPClientTransport(url, { requestInit: { headers: shortHeaders } });
  const fourth = new Client({ name: 'header-echo-short', version: '1.0.0' });
  await fourth.connect(short);
  await fourth.listTools();
  await short.terminateSession();
  await fourth.close();

  tap.child.kill('SIGTERM');
  expect((await tap.exited()).code).toBe(0);
}, 60_000);

afterAll(async () => {
  tap?.kill();
  if (upstream?.pid !== undefined && upstream.exitCode === null) {
    upstream.kill('SIGTERM');
    await waitDead(upstream.pid).catch(() => upstream?.kill('SIGKILL'));
  }
  tmp.cleanup();
});

const responseTo = (recs: Rec[], tool: string): Rec => {
  const call = recs.find((r) => r.kind === 'request' && r.method === 'tools/call' && (r.msg as { params: { name: string } }).params.name === tool)!;
  expect(call, `the ${tool} call is logged`).toBeDefined();
  return recs.find((r) => (r.kind === 'response' || r.kind === 'error') && r.session === call.session && r.reqSeq === call.seq)!;
};

describe('mcp-tap http: secret header values echoed in bodies', () => {
  it('relays them unchanged: the host got every value back, in every spelling, decoded', () => {
    for (const tool of ['whoami', 'whoami-sse']) {
      const lines = results[tool]!.split('\n');
      expect(lines[0]).toBe(`raw: authorization=${TOKEN} x-api-key=${KEY} cookie=sid=${COOKIE}`);
      expect(lines[1]).toBe(`slash-escaped: ${TOKEN}`);
      expect(lines[2]).toBe(`u-escaped: ${TOKEN} ${KEY}`);
      expect(JSON.parse(lines[3]!.slice('nested: '.length))).toEqual({ headers: { authorization: TOKEN, 'x-api-key': KEY } });
      expect(JSON.parse(lines[4]!.slice('nested-u: '.length))).toEqual({ k: KEY });
    }
    expect(results['echo']).toBe(`my key is ${KEY}, my token ${TOKEN}`);
    expect(failMessage).toContain(KEY);
    expect(results['recall']).toBe(`the last key was ${KEY}`);
    const pct = encodeURIComponent;
    // the JSON text of a nested-u line, as its reader parses it
    const lines = (tool: string) => results[tool]!.split('\n').map((l) => l.replace(/^(\S+-nested-u: )(.*)$/, (_, head: string, json: string) => head + JSON.stringify(JSON.parse(json))));
    expect(lines('whoami-basic')).toEqual([
      `credential: ${BASIC}`,
      ...spelledLines('pair', BASIC_PAIR, pct(BASIC_PAIR)),
      ...spelledLines('password', BASIC_PASSWORD, pct(BASIC_PASSWORD)),
      `url: https://alice:${pct(BASIC_PASSWORD)}@example.com/`,
    ]);
    expect(lines('whoami-query')).toEqual([`sent: ${pct(QUERY_KEY)}`, ...spelledLines('api_key', QUERY_KEY, pct(QUERY_KEY))]);
    expect(lines('recall-code')).toEqual([...spelledLines('code', CODE, pct(CODE)), `state: ${STATE}`]);
    expect(results['fresh']).toBe(`fresh ${FRESH.token} ${FRESH.key} ${FRESH.password}`);
    expect(results['echo-basic']).toBe(`key ${QUERY_KEY} password ${BASIC_PASSWORD}`);
    expect([results['cookie-back'], results['link-back-sse'], results['link-flood']]).toEqual([`cookie: ${SERVER_COOKIE}`, `sig: ${LINK_SIG}`, `token: ${TOKEN}`]);
    expect(results['location']).toBe(`http://127.0.0.1:9/cb?code=${encodeURIComponent(CODE)}&state=${STATE}`);
  });

  it('the log holds none of them in any spelling', () => {
    const text = readFileSync(log, 'utf8');
    expect(leaks(text)).toEqual([]);
  });

  it('each echo reads as a marker that names the header, never the value', () => {
    const recs = readRecords(log);
    for (const tool of ['whoami', 'whoami-sse']) {
      const res = responseTo(recs, tool);
      expect(res.http).toMatchObject({ stream: 'post', status: 200 });
      const shown = textOf((res.msg as { result: unknown }).result);
      expect(shown.split('\n')[0]).toBe(`raw: authorization=${AUTH_MARK} x-api-key=${KEY_MARK} cookie=sid=[REDACTED:cookie]`);
      // raw, u-escaped, nested and nested-u for the key; raw, slash-escaped, u-escaped, nested for the token
      expect(shown.split(KEY_MARK).length - 1, shown).toBe(4);
      expect(shown.split(AUTH_MARK).length - 1, shown).toBe(4);
    }
    expect(responseTo(recs, 'whoami-sse').http).toMatchObject({ eventId: 'sse-1' });
    expect(JSON.stringify(responseTo(recs, 'fail').msg)).toContain(`upstream refused key ${KEY_MARK}`);
    // the client's own message, written after its headers were seen
    const echo = recs.find((r) => r.kind === 'request' && (r.msg as { params?: { name?: string } }).params?.name === 'echo')!;
    expect(JSON.stringify(echo.msg)).toContain(`my key is ${KEY_MARK}, my token ${AUTH_MARK}`);
    // another session of the same proxy, whose host never sent the key
    const recall = responseTo(recs, 'recall');
    expect(textOf((recall.msg as { result: unknown }).result)).toBe(`the last key was ${KEY_MARK}`);
    // the header fields themselves stay masked as before
    const sent = (recs.find((r) => r.event === 'exchange')!['request'] as { headers: Array<[string, string]> }).headers;
    expect(sent.find(([n]) => n.toLowerCase() === 'x-api-key')?.[1]).toBe('[REDACTED:header]');
    expect(sent.find(([n]) => n.toLowerCase() === 'authorization')?.[1]).toBe(`Bearer ${AUTH_MARK}`);
  });

  it('a Basic credential decoded, a secret query value and a redirect\'s code read as markers in every spelling', () => {
    const recs = readRecords(log);
    const shown = (tool: string) => textOf((responseTo(recs, tool).msg as { result: unknown }).result).split('\n');
    expect(shown('whoami-basic')).toEqual([
      `credential: ${AUTH_MARK}`,
      ...spelledLines('pair', AUTH_MARK),
      ...spelledLines('password', AUTH_MARK),
      // a URL's user info: the user is no secret
      `url: https://alice:${AUTH_MARK}@example.com/`,
    ]);
    const queryMark = '[REDACTED:query:api_key]';
    expect(shown('whoami-query')).toEqual([`sent: ${queryMark}`, ...spelledLines('api_key', queryMark)]);
    // the state is not a secret-named parameter: a body that repeats it keeps it
    expect(shown('recall-code')).toEqual([...spelledLines('code', '[REDACTED:query:code]'), `state: ${STATE}`]);
    // the client's own message, written after its URL and headers were seen
    const echo = recs.filter((r) => r.kind === 'request' && (r.msg as { params?: { name?: string } }).params?.name === 'echo').map((r) => JSON.stringify(r.msg));
    expect(echo.find((m) => m.includes('password'))).toContain(`key [REDACTED:query:api_key] password ${AUTH_MARK}`);
    // secrets first seen in the URL and headers of the request whose own message repeats them
    expect(echo.find((m) => m.includes('fresh'))).toContain(`fresh [REDACTED:query:access_token] [REDACTED:header:x-api-key] ${AUTH_MARK}`);
    // a response's own header secrets, learned at its head, before its body (JSON, and an SSE event)
    expect(shown('cookie-back')).toEqual(['cookie: [REDACTED:cookie]']);
    expect(shown('link-back-sse')).toEqual(['sig: [REDACTED:query:sig]']);
    // a response whose Link of 200 signed URLs comes before a body repeating the request's token
    expect(shown('link-flood')).toEqual([`token: ${AUTH_MARK}`]);
    // the URL and the header fields themselves: every query value masked, whatever its name
    const exchanges = recs.filter((r) => r.event === 'exchange') as Array<Rec & { query?: string; request: { headers: Array<[string, string]> }; response?: { headers: Array<[string, string]> } }>;
    const location = exchanges.flatMap((x) => x.response?.headers ?? []).find(([n]) => n.toLowerCase() === 'location');
    expect(location?.[1]).toBe('http://127.0.0.1:9/cb?code=[REDACTED:query]&state=[REDACTED:query]');
    expect(exchanges.filter((x) => x.query !== undefined).map((x) => x.query)).toContain('?api_key=[REDACTED:query]');
    expect(exchanges.flatMap((x) => x.request.headers).filter(([n, v]) => n.toLowerCase() === 'authorization' && v.startsWith('Basic')).map(([, v]) => v)).toContain(`Basic ${AUTH_MARK}`);
  });

  it('short secret header values are masked in the header lists, whatever their length', () => {
    const text = readFileSync(log, 'utf8');
    const exchanges = readRecords(log).filter((r) => r.event === 'exchange') as Array<Rec & { request: { headers: Array<[string, string]> } }>;
    const of = (h: Array<[string, string]>, name: string) => h.find(([n]) => n.toLowerCase() === name)?.[1];
    // the short host's requests: the only ones with a Basic credential, an X-Api-Key and a cookie
    const shortSent = exchanges.map((x) => x.request.headers).filter((h) => of(h, 'x-api-key') !== undefined && of(h, 'cookie') !== undefined && (of(h, 'authorization') ?? '').startsWith('Basic'));
    expect(shortSent.length).toBeGreaterThanOrEqual(3); // initialize, tools/list, DELETE
    for (const h of shortSent) {
      // a cookie without a name is all value
      expect([of(h, 'authorization'), of(h, 'x-api-key'), of(h, 'cookie')]).toEqual([`Basic ${AUTH_MARK}`, '[REDACTED:header]', '[REDACTED:cookie]; sid=[REDACTED:cookie]']);
    }
    for (const v of Object.values(SHORT)) expect(text).not.toContain(v);
  });

  it('the readers print none of them, even with --no-redact', async () => {
    for (const args of [
      ['tail', log, '--session', 'all', '--full', '--no-redact'],
      ['export', log, '--session', 'all', '--format', 'jsonl', '--no-redact'],
      ['export', log, '--session', 'all', '--format', 'md', '--no-redact'],
      ['export', log, '--session', 'all', '--format', 'har', '--no-redact'],
      ['stats', log, '--session', 'all'],
    ]) {
      const r = await cli(args);
      expect({ args, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      expect({ args, leaks: leaks(r.stdout + r.stderr) }).toEqual({ args, leaks: [] });
      expect({ args, short: Object.values(SHORT).filter((v) => (r.stdout + r.stderr).includes(v)) }).toEqual({ args, short: [] });
    }
  });
});
