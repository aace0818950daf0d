/**
 * HTTP mode's pure pieces: the loopback guard (DNS rebinding), hop-by-hop header removal with Host set
 * for the upstream, masking of session ids and query values, the legacy endpoint rewrite, and the body
 * copy (bounded, one log line).
 */
import { describe, expect, it } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hostName, malformedReason, refuseReason } from '../../src/http/loopback.js';
import { endToEnd, rawHeader } from '../../src/http/headers.js';
import { maskQuery, maskSessionId } from '../../src/http/mask.js';
import { EndpointRewriter, rewriteEndpointData, rewriteEndpointEvent } from '../../src/http/endpoint-rewrite.js';
import { BodyCapture } from '../../src/http/body-capture.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { split } from '../helpers/split.js';

describe('loopback guard', () => {
  it('accepts loopback Host names with or without a port, and loopback or absent Origins', () => {
    for (const host of ['127.0.0.1:8080', 'localhost', 'LOCALHOST:1', '[::1]:9000', '[::1]']) expect(refuseReason(host, undefined), host).toBeNull();
    expect(refuseReason('127.0.0.1:1', 'http://localhost:3000')).toBeNull();
  });
  it('refuses other hosts, rebinding names and foreign origins', () => {
    expect(refuseReason(undefined, undefined)).toMatch(/no Host/);
    for (const host of ['evil.example', 'localhost.evil.example:80', '127.0.0.1.nip.io', '10.0.0.1:80', 'localhost:abc']) expect(refuseReason(host, undefined), host).not.toBeNull();
    expect(refuseReason('localhost:1', 'http://evil.example')).toMatch(/Origin "http:\/\/evil.example" is not a loopback origin/);
    expect(refuseReason('localhost:1', 'not a url')).toMatch(/is not a URL/);
    // the opaque origin a sandboxed iframe or a data: page of any site sends
    expect(refuseReason('localhost:1', 'null')).toBe('Origin "null" is not a loopback origin');
    expect(hostName('[::1')).toBeNull();
  });
  it('finds a request malformed for a reverse proxy: a target that is not a path, a second Host line', () => {
    expect(malformedReason('/mcp?x=1', ['Host', '127.0.0.1:1', 'Accept', '*/*'])).toBeNull();
    expect(malformedReason('//twice/slashed', ['Host', 'localhost'])).toBeNull();
    expect(malformedReason('http://other.example/mcp', ['Host', 'localhost'])).toBe('the request target "http://other.example/mcp" is not a path');
    expect(malformedReason('*', [])).toMatch(/is not a path/);
    expect(malformedReason('/mcp', ['Host', 'localhost', 'HOST', 'evil.example'])).toBe('the request has 2 Host header lines');
  });
});

describe('end-to-end headers', () => {
  it('drops hop-by-hop fields and those Connection names, keeps case, order and repeats, sets Host', () => {
    const raw = ['Host', '127.0.0.1:5', 'Connection', 'keep-alive, X-Hop', 'X-Hop', '1', 'Keep-Alive', 'timeout=5', 'Transfer-Encoding', 'chunked', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Authorization', 'Bearer t', 'TE', 'trailers', 'Upgrade', 'h2c'];
    expect(endToEnd(raw, 'api.example.com')).toEqual(['Host', 'api.example.com', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Authorization', 'Bearer t']);
    expect(endToEnd(['accept', '*/*'], 'u:1')).toEqual(['Host', 'u:1', 'accept', '*/*']);
    expect(rawHeader(raw, 'authorization')).toBe('Bearer t');
  });
});

describe('masks', () => {
  it('a session id becomes a stable fingerprint that does not contain it', () => {
    const m = maskSessionId('0d6f5a1e-1111-4222-8333-944445555666');
    expect(m).toMatch(/^\[REDACTED:mcp-session-id:[0-9a-f]{8}\]$/);
    expect(m).toBe(maskSessionId('0d6f5a1e-1111-4222-8333-944445555666'));
    expect(m).not.toBe(maskSessionId('other'));
    expect(m).not.toContain('0d6f5a1e');
  });
  it('query values are masked, names kept', () => {
    expect(maskQuery('https://a.example/mcp?api_key=SECRET&x')).toBe('https://a.example/mcp?api_key=[REDACTED:query]&x');
    expect(maskQuery('/mcp')).toBe('/mcp');
  });
  it('a value without a name and a fragment are masked too', () => {
    expect(maskQuery('/cb?=bare-code-1&state')).toBe('/cb?=[REDACTED:query]&state');
    expect(maskQuery('/cb?state=s1#access_token=frag-2')).toBe('/cb?state=[REDACTED:query]');
  });
});

describe('legacy endpoint rewrite', () => {
  const up = 'https://api.example.com';
  const local = 'http://127.0.0.1:7777';
  it('rewrites an absolute endpoint on the upstream origin, leaves relative and foreign ones', () => {
    expect(rewriteEndpointData('https://api.example.com/messages?sessionId=abc', up, local)).toBe('http://127.0.0.1:7777/messages?sessionId=abc');
    expect(rewriteEndpointData('/messages?sessionId=abc', up, local)).toBeNull();
    expect(rewriteEndpointData('https://other.example/messages', up, local)).toBeNull();
    expect(rewriteEndpointEvent('event: endpoint\ndata: https://api.example.com/m?s=1\n\nrest', up, local)).toBe('event: endpoint\ndata: http://127.0.0.1:7777/m?s=1\n\nrest');
    expect(rewriteEndpointEvent('event: message\ndata: https://api.example.com/m\n\n', up, local)).toBeNull();
  });

  async function through(chunks: Buffer[]): Promise<string> {
    const out: Buffer[] = [];
    await pipeline(
      Readable.from(chunks),
      new EndpointRewriter(up, local),
      new Writable({
        write(c: Buffer, _e, cb) {
          out.push(c);
          cb();
        },
      }),
    );
    return Buffer.concat(out).toString('utf8');
  }

  it('rewrites the first event however it is chunked, and passes every other byte unchanged', async () => {
    const stream = Buffer.from('event: endpoint\r\ndata: https://api.example.com/messages?sessionId=42\r\n\r\nevent: message\ndata: {"https://api.example.com":1}\n\n');
    const want = stream.toString('utf8').replace('https://api.example.com/messages', 'http://127.0.0.1:7777/messages');
    for (const cuts of [[], [3], [5, 20, 40], [16, 17, 18], [70, 71, 72, 73]]) expect(await through(split(stream, cuts))).toBe(want);
  });

  it('lets a stream that does not start with an endpoint event through at once', async () => {
    const stream = Buffer.from('event: message\ndata: {}\n\n');
    expect(await through(split(stream, [2, 9]))).toBe(stream.toString());
    const r = new EndpointRewriter(up, local);
    const got: Buffer[] = [];
    r.on('data', (c: Buffer) => got.push(c));
    r.write(Buffer.from('data: {"a":1}\n'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(Buffer.concat(got).toString()).toBe('data: {"a":1}\n');
  });
});

describe('BodyCapture', () => {
  it('keeps a body whole up to the limit, with line ends turned to spaces', () => {
    const c = new BodyCapture(1024, jsonShortener);
    for (const part of split(Buffer.from('{\n  "jsonrpc": "2.0",\r\n  "id": 1\n}'), [3, 10])) c.push(part);
    const line = c.finish();
    expect(line.bytes).toBe(34);
    expect(line.data!.toString()).toBe('{   "jsonrpc": "2.0",    "id": 1 }');
    expect(JSON.parse(line.data!.toString())).toEqual({ jsonrpc: '2.0', id: 1 });
  });
  it('past the limit keeps a head and the shortened JSON, not the body', () => {
    const body = Buffer.from(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"blob":"${'y'.repeat(10_000)}"}}`);
    const c = new BodyCapture(1024, jsonShortener);
    for (const part of split(body, [100, 1000, 1023, 1024, 1025, 5000])) c.push(part);
    const line = c.finish();
    expect(line.bytes).toBe(body.length);
    expect(line.data).toBeUndefined();
    expect(line.head!.equals(body.subarray(0, 1024))).toBe(true);
    expect(JSON.parse(line.shortened!)).toMatchObject({ id: 7, method: 'tools/call' });
  });
});
