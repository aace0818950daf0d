/**
 * HTTP mode, house rule 7 over the wire: a secret header's value (the Authorization credential, an
 * X-Api-Key, a cookie) that comes back in a body — an upstream echoing it in a tool result as a JSON
 * response or as an SSE frame, in a JSON-RPC error message, spelled raw, with `\/`, as `\uXXXX` escapes,
 * inside JSON text inside a string; or the client sending it inside its own JSON-RPC message — never
 * reaches the log. The official SDK client sends the headers through the built CLI (`mcp-tap http`) to a
 * hand-written upstream (test/fixtures/servers/echo-headers-http.mjs), both real child processes; the
 * relay delivers the values unchanged, the log and what the readers print hold only the markers.
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
const PLANTED = [TOKEN, KEY, COOKIE];
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

/** The planted values `text` holds in any spelling: as it is, or after up to five levels of escapes decoded. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  let t = text;
  for (let level = 0; level <= 5; level++) {
    for (const s of PLANTED) if (t.includes(s)) found.add(s);
    t = decodeOnce(t);
  }
  return [...found];
}

const cli = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
  });

const textOf = (r: unknown): string => ((r as { content: Array<{ text: string }> }).content[0]?.text ?? '');

beforeAll(async () => {
  const child = spawn(process.execPath, [fixture('echo-headers-http.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    }
  });
});
