/**
 * HTTP mode's pure pieces for issue 33 and issue 28 §2: header masking as the log keeps headers, the
 * secrets headers carry (masked wherever else they appear), WWW-Authenticate parsing, which requests
 * are MCP whatever path they use, which bodies are JSON-RPC, the OAuth step of an exchange, the sign-in
 * chain, and the 2026-07-28 routing headers checked against the body.
 */
import { describe, expect, it } from 'vitest';
import { headerMarker, headerSecrets, maskHeaders, maskHeaderValue, maskQuery, parseChallenge } from '../../src/http/mask.js';
import { EndpointPolicy, isJsonRpcBody, normalizePath } from '../../src/http/endpoint-policy.js';
import { AuthFlows, asEndpointsOf, authStepOf, grantTypeOf } from '../../src/http/auth-flow.js';
import { authChainText } from '../../src/log/auth-chain.js';
import { checksRoutingHeaders, decodeHeaderValue, routingHeaderProblems } from '../../src/protocol/routing-headers.js';
import { EnvMasker } from '../../src/log/env-mask.js';

const line = (text: string) => ({ bytes: Buffer.byteLength(text), data: Buffer.from(text) });

describe('header masks', () => {
  it('keeps the scheme of a credential, the names of cookies, the attributes of Set-Cookie; fingerprints the session id', () => {
    const raw = [
      'Authorization', 'Bearer eyJhbGciOi.secret.token',
      'Proxy-Authorization', 'Basic dXNlcjpwYXNz',
      'Cookie', 'a=1111; sid=COOKIE-2222',
      'Set-Cookie', 'sid=SETCOOKIE-3333; Path=/; HttpOnly',
      'Mcp-Session-Id', 'b1f5c0de-1111-4222-8333-944445555666',
      'Location', 'http://127.0.0.1:9/cb?code=CODE-4444&state=xyz#frag',
      'X-Api-Key', 'KEY-5555',
      'x-amz-security-token', 'TOKEN-6666',
      'WWW-Authenticate', 'Bearer resource_metadata="https://a/.well-known/oauth-protected-resource"',
      'Content-Type', 'application/json',
      'Mcp-Name', 'get_weather',
    ];
    const masked = maskHeaders(raw);
    expect(masked).toEqual([
      ['Authorization', 'Bearer [REDACTED:authorization]'],
      ['Proxy-Authorization', 'Basic [REDACTED:authorization]'],
      ['Cookie', 'a=[REDACTED:cookie]; sid=[REDACTED:cookie]'],
      ['Set-Cookie', 'sid=[REDACTED:cookie]; Path=/; HttpOnly'],
      ['Mcp-Session-Id', expect.stringMatching(/^\[REDACTED:mcp-session-id:[0-9a-f]{8}\]$/)],
      ['Location', 'http://127.0.0.1:9/cb?code=[REDACTED:query]&state=[REDACTED:query]'],
      ['X-Api-Key', '[REDACTED:header]'],
      ['x-amz-security-token', '[REDACTED:header]'],
      ['WWW-Authenticate', 'Bearer resource_metadata="https://a/.well-known/oauth-protected-resource"'],
      ['Content-Type', 'application/json'],
      ['Mcp-Name', 'get_weather'],
    ]);
    const text = JSON.stringify(masked);
    for (const s of ['secret.token', 'dXNlcjpwYXNz', '1111', 'COOKIE-2222', 'SETCOOKIE-3333', 'b1f5c0de', 'CODE-4444', 'KEY-5555', 'TOKEN-6666', 'frag']) expect(text).not.toContain(s);
    expect(maskHeaderValue('authorization', 'just-a-token')).toBe('[REDACTED:authorization]');
    expect(maskQuery('/x#only-fragment')).toBe('/x');
  });

  it('names the secret values it masked, with their markers, so a body that echoes one is masked too', () => {
    const raw = ['authorization', 'Bearer ABCDEFGH12345678', 'cookie', 'a=COOKIEVALUE1; b=COOKIEVALUE2', 'mcp-session-id', 'SESSION-0123456789', 'set-cookie', 'c=SETCOOKIEVAL; Path=/'];
    const secrets = headerSecrets(raw);
    // the cookies first, the credential and the session id last (the most recently seen)
    expect(secrets.map((s) => s.value)).toEqual(['COOKIEVALUE1', 'COOKIEVALUE2', 'SETCOOKIEVAL', 'ABCDEFGH12345678', 'SESSION-0123456789']);
    const masker = new EnvMasker([]);
    expect(masker.active).toBe(false);
    for (const s of secrets) masker.learn(s.value, s.marker);
    masker.learn('short', '[x]'); // under 8 characters: never learned
    const lineIn = `${JSON.stringify({ msg: { text: 'token=ABCDEFGH12345678 session=SESSION-0123456789 short' } })}\n`;
    const out = masker.maskLine(lineIn);
    expect(out).toBe(`${JSON.stringify({ msg: { text: `token=[REDACTED:authorization] session=${secrets[4]!.marker} short` } })}\n`);
  });

  it('learns a bounded number of wire secrets, forgetting the oldest first', () => {
    const masker = new EnvMasker([{ name: 'FIXED_TOKEN', value: 'fixed-secret-value' }]);
    for (let i = 0; i < 100; i++) masker.learn(`learned-secret-${String(i).padStart(3, '0')}`, `[L${i}]`);
    const probe = (s: string) => masker.maskLine(`${JSON.stringify({ t: s })}\n`);
    expect(probe('learned-secret-099')).toContain('[L99]');
    expect(probe('learned-secret-036')).toContain('[L36]');
    expect(probe('learned-secret-035')).toContain('learned-secret-035');
    expect(probe('fixed-secret-value')).toContain('[REDACTED:env FIXED_TOKEN]');
  });

  it('names the whole value of every other secret-named header, with a marker that names the header', () => {
    const raw = [
      'X-Api-Key', ' KEY-0123456789 ',
      'x-amz-security-token', 'AMZTOKEN-0123456789',
      'X-Auth-Token', 'short7',
      'WWW-Authenticate', 'Bearer realm="example-realm"',
      'Mcp-Param-Region', 'eu-west-1-region',
      'Content-Type', 'application/json',
      'X-Request-Id', 'not-a-secret-0123',
    ];
    expect(headerSecrets(raw)).toEqual([
      { value: 'KEY-0123456789', marker: '[REDACTED:header:x-api-key]' },
      { value: 'AMZTOKEN-0123456789', marker: '[REDACTED:header:x-amz-security-token]' },
      // named here; the masker leaves out values under 8 characters
      { value: 'short7', marker: '[REDACTED:header:x-auth-token]' },
    ]);
    // a name is the client's choice: the marker keeps it JSON-safe and short
    expect(headerMarker('X-Secret"\\]\n')).toBe('[REDACTED:header:x-secret????]');
    expect(headerMarker(`x-token-${'a'.repeat(200)}`)).toHaveLength('[REDACTED:header:]'.length + 64);
    const masker = new EnvMasker([]);
    for (const s of headerSecrets(raw)) masker.learn(s.value, s.marker);
    const body = (t: string) => `${JSON.stringify({ msg: { text: t } })}\n`;
    expect(masker.maskLine(body('k=KEY-0123456789 t=AMZTOKEN-0123456789 a=short7'))).toBe(body('k=[REDACTED:header:x-api-key] t=[REDACTED:header:x-amz-security-token] a=short7'));
    // every spelling the env masker knows: \u escapes, and JSON text inside a string
    const u = [...'KEY-0123456789'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(masker.maskLine(`{"msg":{"text":"${u}"}}\n`)).toBe(body('[REDACTED:header:x-api-key]'));
    expect(masker.maskLine(body(`{"k":"${u}"}`))).toBe(body('{"k":"[REDACTED:header:x-api-key]"}'));
  });

  it('keeps the most recently seen wire secrets: one seen again outlives newer ones', () => {
    const masker = new EnvMasker([]);
    const probe = (s: string) => masker.maskLine(`${JSON.stringify({ t: s })}\n`);
    masker.learn('bearer-token-in-use', '[T]');
    for (let i = 0; i < 100; i++) {
      // other hosts' new sessions, each with a new id
      masker.learn(`session-id-${String(i).padStart(3, '0')}`, `[S${i}]`);
      // an answer echoing the token is written before its host's next request carries the token again
      expect(probe('bearer-token-in-use'), `after ${i + 1} new ids`).toContain('[T]');
      masker.learn('bearer-token-in-use', '[T]');
    }
    expect(probe('session-id-099')).toContain('[S99]');
    expect(probe('session-id-037')).toContain('[S37]');
    expect(probe('session-id-036')).toContain('session-id-036');
  });

  it('masks a learned value that holds another whole, whichever was learned first', () => {
    const masker = new EnvMasker([{ name: 'API_KEY', value: 'inner-key-0123' }]);
    masker.learn('inner-key-0123', '[dup]'); // already a fixed secret: its marker stays
    masker.learn('prefix.inner-key-0123.suffix', '[REDACTED:authorization]');
    const out = masker.maskLine(`${JSON.stringify({ t: 'a prefix.inner-key-0123.suffix b inner-key-0123' })}\n`);
    expect(out).toBe(`${JSON.stringify({ t: 'a [REDACTED:authorization] b [REDACTED:env API_KEY]' })}\n`);
  });

  it('masks a learned value of 8 characters and leaves a shorter one', () => {
    const masker = new EnvMasker([]);
    masker.learn('k8-chars', '[A]');
    masker.learn('7-chars', '[B]');
    expect(masker.maskLine(`${JSON.stringify({ t: 'k8-chars and 7-chars' })}\n`)).toBe(`${JSON.stringify({ t: '[A] and 7-chars' })}\n`);
  });
});

describe('WWW-Authenticate', () => {
  it('parses the first challenge: scheme, resource_metadata, scope, error, error_description, realm', () => {
    expect(parseChallenge('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write", error="insufficient_scope", error_description="needs \\"write\\""')).toEqual({
      scheme: 'Bearer',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      scope: 'files:read files:write',
      error: 'insufficient_scope',
      errorDescription: 'needs "write"',
    });
    expect(parseChallenge('Bearer realm=example, error=invalid_token')).toEqual({ scheme: 'Bearer', realm: 'example', error: 'invalid_token' });
    expect(parseChallenge('Bearer')).toEqual({ scheme: 'Bearer' });
    expect(parseChallenge('   ')).toBeNull();
    // a metadata URL's query is masked like any logged URL
    expect(parseChallenge('Bearer resource_metadata="https://a/m?k=v"')?.resourceMetadata).toBe('https://a/m?k=[REDACTED:query]');
  });
});

describe('which requests are MCP', () => {
  const sig = (over: Record<string, string | undefined>) => ({ method: 'POST', path: '/mcp', ...over });
  it('the given path (trailing slash ignored), a session id, a protocol version or an SSE Accept: MCP on any path', () => {
    const p = new EndpointPolicy('/mcp/');
    expect(p.path).toBe('/mcp');
    expect(p.route(sig({ path: '/mcp' }))).toBe('mcp');
    expect(p.route(sig({ path: '/mcp/' }))).toBe('mcp');
    expect(p.route(sig({ path: '/other', sessionId: 's' }))).toBe('mcp');
    expect(p.route(sig({ path: '/other', protocolVersion: '2025-11-25' }))).toBe('mcp');
    expect(p.route(sig({ path: '/other', accept: 'application/json, text/event-stream' }))).toBe('mcp');
    expect(p.route({ method: 'GET', path: '/sse', accept: 'text/event-stream' })).toBe('mcp');
  });
  it('a bare JSON POST elsewhere is judged by its body; OAuth discovery, forms and the rest are outside', () => {
    const p = new EndpointPolicy('');
    expect(p.path).toBe('/');
    expect(p.route(sig({ path: '/rpc', contentType: 'application/json; charset=utf-8' }))).toBe('probe');
    expect(p.route(sig({ path: '/rpc', contentType: 'application/json', contentEncoding: 'gzip' }))).toBe('outside');
    expect(p.route(sig({ path: '/token', contentType: 'application/x-www-form-urlencoded' }))).toBe('outside');
    expect(p.route({ method: 'GET', path: '/.well-known/oauth-protected-resource', accept: 'text/event-stream', sessionId: 'x' })).toBe('outside');
    expect(p.route({ method: 'GET', path: '/authorize' })).toBe('outside');
    expect(normalizePath('')).toBe('/');
    expect(p.describe()).toMatch(/^the URL names no path, so JSON-RPC and SSE are decoded on any path/);
    expect(new EndpointPolicy('/mcp').describe()).toMatch(/^MCP endpoint \/mcp; /);
  });
  it("an origin-only URL (path '/') names no endpoint path, and its root is the MCP endpoint", () => {
    const p = new EndpointPolicy('/');
    expect(p.path).toBe('/');
    expect(normalizePath('/')).toBe('/');
    expect(p.describe()).toMatch(/^the URL names no path, so JSON-RPC and SSE are decoded on any path/);
    expect(p.route({ method: 'POST', path: '/' })).toBe('mcp');
  });
  it('JSON-RPC bodies: objects or arrays of objects with jsonrpc or a method; never an OAuth document', () => {
    expect(isJsonRpcBody(line('{"jsonrpc":"2.0","id":1,"method":"ping"}'))).toBe(true);
    expect(isJsonRpcBody(line('[{"jsonrpc":"2.0","id":1,"result":{}}]'))).toBe(true);
    expect(isJsonRpcBody(line('{"method":"tools/list","id":1}'))).toBe(true);
    expect(isJsonRpcBody(line('{"client_name":"x","redirect_uris":["http://a"]}'))).toBe(false);
    expect(isJsonRpcBody(line('{"access_token":"t","token_type":"Bearer"}'))).toBe(false);
    expect(isJsonRpcBody(line('{"error":"invalid_token"}'))).toBe(false);
    expect(isJsonRpcBody(line('[]'))).toBe(false);
    expect(isJsonRpcBody(line('not json'))).toBe(false);
    expect(isJsonRpcBody({ bytes: 9_000_000, head: Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"x":"'), shortened: null })).toBe(true);
    expect(isJsonRpcBody({ bytes: 9_000_000, head: Buffer.from('{"access_token":"'), shortened: null })).toBe(false);
  });
});

describe('OAuth steps and the sign-in chain', () => {
  it('classifies metadata, registration, authorization and token exchanges; learns endpoints from the metadata', () => {
    expect(authStepOf('GET', '/.well-known/oauth-protected-resource/mcp', {})).toBe('resource-metadata');
    expect(authStepOf('GET', '/.well-known/oauth-authorization-server', {})).toBe('as-metadata');
    expect(authStepOf('GET', '/tenant/.well-known/openid-configuration', {})).toBe('as-metadata');
    expect(authStepOf('POST', '/oauth/token', {})).toBe('token');
    expect(authStepOf('POST', '/register', {})).toBe('register');
    expect(authStepOf('GET', '/authorize', {})).toBe('authorize');
    expect(authStepOf('GET', '/token', {})).toBeNull();
    const as = asEndpointsOf({ token_endpoint: 'https://a.example/o/t', registration_endpoint: 'https://other.example/reg', authorization_endpoint: 'https://a.example/o/a' }, 'https://a.example');
    expect(as).toEqual({ token: '/o/t', authorize: '/o/a' });
    expect(authStepOf('POST', '/o/t', as)).toBe('token');
    expect(authStepOf('POST', '/token', as)).toBeNull();
    expect(grantTypeOf('code=SECRET&grant_type=authorization_code&code_verifier=V')).toBe('authorization_code');
    expect(grantTypeOf('grant_type=refresh_token&refresh_token=R')).toBe('refresh_token');
    expect(grantTypeOf('grant_type=%3Cscript%3E')).toBeUndefined();
  });

  it('a chain from the challenge to the accepted retry, in words every reader shows', () => {
    const flows = new AuthFlows();
    expect(flows.answered(0, 200, '/mcp', true)).toBeNull(); // no chain open
    flows.challenge(1000, 401, '/mcp');
    // the host retries its stale token before fetching anything: still the same chain
    expect(flows.answered(1001, 401, '/mcp', true)).toBeNull();
    flows.challenge(1001, 401, '/mcp', 'invalid_token');
    flows.step(1010, 'resource-metadata', 200, '/.well-known/oauth-protected-resource/mcp');
    flows.step(1020, 'as-metadata', 200, '/.well-known/oauth-authorization-server');
    flows.step(1030, 'register', 201, '/register');
    flows.step(1040, 'authorize', 302, '/authorize');
    flows.step(1050, 'token', 200, '/token', 'authorization_code');
    expect(flows.answered(1060, 200, '/mcp', false)).toBeNull(); // a request without credentials does not end it
    const done = flows.answered(1075, 200, '/mcp', true)!;
    expect(done.ok).toBe(true);
    expect(done.durationMs).toBe(75);
    expect(authChainText(done.chain)).toBe('401 → 401 invalid_token → resource metadata → auth server metadata → register → authorize → token → retry OK');
    expect(done.chain.at(-1)).toEqual({ step: 'retry', status: 200, path: '/mcp', ms: 75 });
    expect(flows.takeOpen(2000)).toBeNull();
  });

  it('a refresh that is refused ends the chain as failed; an unfinished one is taken at shutdown; long chains are bounded', () => {
    const flows = new AuthFlows();
    flows.challenge(0, 401, '/mcp', 'invalid_token');
    flows.step(5, 'token', 400, '/token', 'refresh_token');
    const failed = flows.answered(9, 401, '/mcp', true)!;
    expect(failed.ok).toBe(false);
    expect(authChainText(failed.chain)).toBe('401 invalid_token → token (refresh) 400 → retry 401');
    flows.challenge(10, 403, '/mcp', 'insufficient_scope');
    for (let i = 0; i < 50; i++) flows.step(11 + i, 'resource-metadata', 404, '/.well-known/oauth-protected-resource');
    const open = flows.takeOpen(100)!;
    expect(open.ok).toBe(false);
    expect(open.chain).toHaveLength(32);
    expect(open.omitted).toBe(19);
    expect(authChainText(open.chain, open.omitted)).toMatch(/^403 insufficient_scope → resource metadata 404 → .* → … 19 more$/);
    // metadata read without a challenge is no failed sign-in
    flows.step(200, 'resource-metadata', 200, '/.well-known/oauth-protected-resource');
    expect(flows.takeOpen(300)).toBeNull();
  });

  it('a retry answered with anything but 2xx ends the chain as failed, a redirect too', () => {
    for (const status of [302, 307, 400, 500]) {
      const flows = new AuthFlows();
      flows.challenge(0, 401, '/mcp');
      flows.step(5, 'token', 200, '/token', 'authorization_code');
      expect(flows.answered(9, status, '/mcp', true)!.ok, String(status)).toBe(false);
    }
  });

  it('a token request without a challenge that no retry followed is a failed sign-in at shutdown', () => {
    const flows = new AuthFlows();
    flows.step(0, 'as-metadata', 200, '/.well-known/oauth-authorization-server');
    flows.step(4, 'token', 400, '/token', 'refresh_token');
    const open = flows.takeOpen(10)!;
    expect(open.ok).toBe(false);
    expect(authChainText(open.chain)).toBe('auth server metadata → token (refresh) 400');
  });
});

describe('2026-07-28 routing headers', () => {
  const body = { method: 'tools/call', name: 'get_weather', protocolVersion: '2026-07-28' };
  it('applies from 2026-07-28 on', () => {
    expect(checksRoutingHeaders('2026-07-28')).toBe(true);
    expect(checksRoutingHeaders('2027-01-01')).toBe(true);
    expect(checksRoutingHeaders('2025-11-25')).toBe(false);
    expect(checksRoutingHeaders(undefined)).toBe(false);
    expect(checksRoutingHeaders('draft')).toBe(false);
  });
  it('agreeing headers pass, Base64 names decoded; each mismatch and each missing header is named', () => {
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28', method: 'tools/call', name: 'get_weather' }, body)).toEqual([]);
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28', method: 'tools/call', name: '=?base64?SGVsbG8sIOS4lueVjA==?=' }, { ...body, name: 'Hello, 世界' })).toEqual([]);
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28', method: 'tools/list', name: 'get_forecast' }, body)).toEqual([
      'Mcp-Method "tools/list" does not match the body\'s method "tools/call"',
      'Mcp-Name "get_forecast" does not match the body\'s "get_weather"',
    ]);
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28' }, body)).toEqual(['no Mcp-Method header (the body\'s method is "tools/call")', 'no Mcp-Name header (required for tools/call; the body names "get_weather")']);
    expect(routingHeaderProblems({ protocolVersion: '2027-01-01', method: 'tools/call', name: 'get_weather' }, body)).toEqual(['MCP-Protocol-Version "2027-01-01" does not match the body\'s "2026-07-28"']);
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28', method: 'tools/call', name: '=?base64?!!!?=' }, body)).toEqual(['Mcp-Name "=?base64?!!!?=" is not valid Base64 inside its =?base64?…?= sentinel']);
    // a body of the revision without the version header; older requests without routing headers are left alone
    expect(routingHeaderProblems({ method: 'tools/call', name: 'get_weather' }, body)).toEqual(['no MCP-Protocol-Version header (the body\'s _meta protocolVersion is "2026-07-28")']);
    expect(routingHeaderProblems({ protocolVersion: '2025-11-25', method: 'tools/call', name: 'get_weather' }, body)).toEqual(['MCP-Protocol-Version "2025-11-25" does not match the body\'s "2026-07-28"']);
    expect(routingHeaderProblems({}, { method: 'tools/call', name: 'get_weather' })).toEqual([]);
    expect(routingHeaderProblems({ protocolVersion: '2025-06-18' }, { method: 'tools/call', name: 'get_weather' })).toEqual([]);
    // no Mcp-Name needed for other methods
    expect(routingHeaderProblems({ protocolVersion: '2026-07-28', method: 'tools/list' }, { method: 'tools/list', protocolVersion: '2026-07-28' })).toEqual([]);
  });
});
