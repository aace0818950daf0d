/**
 * Redaction rules, one table per rule (issue 5): secret keys at any depth and in arrays, token shapes in
 * free text, JSON nested as text, command-line flags, environment values, user keys and patterns, and
 * schemas that keep their property names.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isSecretEnvName,
  isSecretFlag,
  isSecretKey,
  redactArgs,
  redactString,
  redactStrings,
  redactValue,
  secretEnvValues,
  type RedactOptions,
} from '../../src/transcript/redact.js';

describe('secret keys (case-insensitive, any separator, session… prefix)', () => {
  it.each([
    ['authorization', true],
    ['Authorization', true],
    ['token', true],
    ['api_key', true],
    ['apiKey', true],
    ['API-KEY', true],
    ['x-api-key', true],
    ['access_token', true],
    ['refreshToken', true],
    ['client_secret', true],
    ['password', true],
    ['PASSWD', true],
    ['secret', true],
    ['cookie', true],
    ['Set-Cookie', true],
    ['private_key', true],
    ['sessionId', true],
    ['session', true],
    ['session_token', true],
    ['github_token', true],
    ['db_password', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['progressToken', false],
    ['maxTokens', false],
    ['tokens', false],
    ['name', false],
    ['keyword', false],
    ['author', false],
    ['description', false],
    ['', false],
  ])('%s → %s', (key, secret) => {
    expect(isSecretKey(key)).toBe(secret);
  });

  it('user keys are compared the same way', () => {
    expect(isSecretKey('internal-ref', new Set(['internalref']))).toBe(true);
  });
});

describe('values under secret keys, at any depth and in arrays', () => {
  it.each<[string, unknown, unknown]>([
    ['top level', { password: 'hunter2' }, { password: '[REDACTED:key:password]' }],
    ['nested', { a: { b: { c: { api_key: 'k1' } } } }, { a: { b: { c: { api_key: '[REDACTED:key:api_key]' } } } }],
    ['in arrays', [{ x: 1 }, [{ Authorization: 'Basic abc' }]], [{ x: 1 }, [{ Authorization: '[REDACTED:key:authorization]' }]]],
    ['object value goes whole', { credentials: { user: 'u', pass: 'p' } }, { credentials: '[REDACTED:key:credentials]' }],
    ['number value', { pin_token: 123456 }, { pin_token: '[REDACTED:key:pin_token]' }],
    ['booleans, null and empty strings carry nothing', { password: '', token: null, secret: true }, { password: '', token: null, secret: true }],
    ['session… keys', { sessionId: 'abc', session: { id: 1 } }, { sessionId: '[REDACTED:key:sessionid]', session: '[REDACTED:key:session]' }],
    ['progressToken stays', { _meta: { progressToken: 'tok-1' } }, { _meta: { progressToken: 'tok-1' } }],
    ['plain data stays', { name: 'echo', arguments: { message: 'hi' } }, { name: 'echo', arguments: { message: 'hi' } }],
  ])('%s', (_name, input, expected) => {
    expect(redactValue(input)).toEqual(expected);
  });

  it('returns the same object when nothing is secret (and never changes its input)', () => {
    const input = { a: [1, { b: 'c' }], d: 'e' };
    const copy = structuredClone(input);
    expect(redactValue(input)).toBe(input);
    const secret = { a: { password: 'x' } };
    redactValue(secret);
    expect(secret).toEqual({ a: { password: 'x' } });
    expect(input).toEqual(copy);
  });
});

describe('token shapes anywhere in strings', () => {
  it.each([
    ['bearer', 'Authorization header was Bearer abc123def456ghi', 'Authorization header was Bearer [REDACTED:bearer-token]'],
    ['bearer in prose stays', 'send a Bearer token in the header', 'send a Bearer token in the header'],
    ['openai', 'key=sk-abcdefghijklmnop1234 ok', 'key=[REDACTED:openai-key] ok'],
    ['openai project', 'sk-proj-AbCdEfGhIjKlMnOp0123456789', '[REDACTED:openai-key]'],
    ['anthropic', 'using sk-ant-api03-AbCdEfGhIjKlMnOp0123-xyz', 'using [REDACTED:anthropic-key]'],
    ['github ghp', 'ghp_0123456789abcdefghijABCDEFGHIJ012345', '[REDACTED:github-token]'],
    ['github gho', 'token gho_0123456789abcdefghijABCDEFGHIJ0123!', 'token [REDACTED:github-token]!'],
    ['github fine-grained', 'github_pat_11AAAAAAA0123456789_abcdefghijklmnopqrstuvwxyz', '[REDACTED:github-token]'],
    ['slack', 'xoxb-1234567890-abcdefghij and xoxp-12-34567890abc', '[REDACTED:slack-token] and [REDACTED:slack-token]'],
    ['aws', 'AKIAIOSFODNN7EXAMPLE is the key id', '[REDACTED:aws-access-key] is the key id'],
    ['google', 'AIzaSyA-0123456789abcdefghijklmnopqrstu', '[REDACTED:google-api-key]'],
    ['jwt', 'id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl end', 'id [REDACTED:jwt] end'],
    ['pem', 'k=-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\nafter', 'k=[REDACTED:private-key]\nafter'],
    ['pem cut short', 'x -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXkt', 'x [REDACTED:private-key]'],
    ['url credentials', 'connect postgres://admin:s3cr3t@db:5432/x', 'connect postgres://[REDACTED:url-credentials]@db:5432/x'],
    ['url without credentials stays', 'see https://example.com/a?b=c', 'see https://example.com/a?b=c'],
    ['stripe', 'sk_live_0123456789abcdef', '[REDACTED:stripe-key]'],
    ['header line', 'Cookie: a=b; c=d', 'Cookie: [REDACTED:key:cookie]'],
    ['name=value', 'export API_KEY=abc123 and max_tokens=5', 'export API_KEY=[REDACTED:key:api_key] and max_tokens=5'],
    ['query string', 'GET /cb?code=1&access_token=xyz&state=2', 'GET /cb?code=1&access_token=[REDACTED:key:access_token]&state=2'],
    ['quoted key in broken JSON', '{"client_secret": "abc", "n": 1', '{"client_secret": "[REDACTED:key:client_secret]", "n": 1'],
    ['cut-off quoted value', '{"refresh_token":"abcdef', '{"refresh_token":"[REDACTED:key:refresh_token]'],
    ['escaped quotes', 'x \\"password\\":\\"pw1\\" y', 'x \\"password\\":\\"[REDACTED:key:password]\\" y'],
    ['progressToken=… stays', 'progressToken=7', 'progressToken=7'],
    ['plain text stays', 'hello world: nothing here', 'hello world: nothing here'],
  ])('%s', (_name, input, expected) => {
    expect(redactString(input)).toBe(expected);
  });

  it('is idempotent: redacting redacted text changes nothing', () => {
    const once = redactString('Bearer abc123def456ghi and password=x and ghp_0123456789abcdefghijABCDEFGHIJ012345');
    expect(redactString(once)).toBe(once);
  });

  it('never lets a planted token through, whatever text surrounds it (property)', () => {
    const tokens = ['ghp_0123456789abcdefghijABCDEFGHIJ012345', 'sk-ant-api03-AbCdEfGhIjKlMnOp0123', 'AKIAIOSFODNN7EXAMPLE', 'xoxb-1234567890-abcdefghij'];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...tokens), fc.string(), fc.constantFrom(' ', '\n', '"', '(', ':', '/', '='), (a, tok, b, sep) => {
        const out = redactString(`${a}${sep}${tok}${sep === '(' ? ')' : sep}${b}`);
        expect(out).not.toContain(tok);
        expect(redactString(out)).toBe(out);
      }),
      { numRuns: 300 },
    );
  });
});

describe('JSON nested as text', () => {
  it('parses, redacts and re-serializes a tools/call result whose text is JSON', () => {
    const result = { content: [{ type: 'text', text: '{"user":"a","token":"t-1","list":[{"password":"p"}]}' }] };
    const out = redactValue(result) as typeof result;
    expect(JSON.parse(out.content[0]!.text)).toEqual({ user: 'a', token: '[REDACTED:key:token]', list: [{ password: '[REDACTED:key:password]' }] });
  });

  it('keeps pretty-printing, and JSON in JSON in text', () => {
    const inner = JSON.stringify({ api_key: 'k' });
    const text = JSON.stringify({ nested: inner }, null, 2);
    const out = redactValue({ text }) as { text: string };
    expect(out.text).toContain('\n  "nested"');
    expect(JSON.parse(JSON.parse(out.text).nested)).toEqual({ api_key: '[REDACTED:key:api_key]' });
  });

  it('leaves JSON text without secrets exactly as it was', () => {
    const text = '{ "a" : 1,"b":[2, 3] }';
    expect(redactValue({ text })).toEqual({ text });
  });

  it('text that only looks like JSON gets the text rules', () => {
    expect(redactValue({ text: '{not json, password=abc}' })).toEqual({ text: '{not json, password=[REDACTED:key:password]}' });
  });
});

describe('schemas keep their property names', () => {
  it('inputSchema / outputSchema / requestedSchema: names stay, secrets in defaults and examples go', () => {
    const tool = {
      name: 'login',
      inputSchema: {
        type: 'object',
        properties: {
          password: { type: 'string', description: 'your password' },
          token: { type: 'string', default: 'abc', examples: ['one', 'two'] },
          url: { type: 'string', default: 'https://u:p@host/' },
        },
        required: ['password', 'token'],
      },
      outputSchema: { type: 'object', properties: { session: { type: 'string' } } },
    };
    expect(redactValue(tool)).toEqual({
      name: 'login',
      inputSchema: {
        type: 'object',
        properties: {
          password: { type: 'string', description: 'your password' },
          token: { type: 'string', default: '[REDACTED:key:token]', examples: ['[REDACTED:key:token]', '[REDACTED:key:token]'] },
          url: { type: 'string', default: 'https://[REDACTED:url-credentials]@host/' },
        },
        required: ['password', 'token'],
      },
      outputSchema: { type: 'object', properties: { session: { type: 'string' } } },
    });
    const elicit = { requestedSchema: { type: 'object', properties: { apiKey: { type: 'string' } } } };
    expect(redactValue(elicit)).toBe(elicit);
  });
});

describe('command-line flags', () => {
  it.each<[string, string[], string[]]>([
    ['--flag=value', ['--api-key=abc', '--port=80'], ['--api-key=[REDACTED:flag:--api-key]', '--port=80']],
    ['--flag value', ['--token', 'abc', '--verbose', 'x.js'], ['--token', '[REDACTED:flag:--token]', '--verbose', 'x.js']],
    ['camelCase flags', ['--authToken', 'abc', '--clientSecret=s'], ['--authToken', '[REDACTED:flag:--authToken]', '--clientSecret=[REDACTED:flag:--clientSecret]']],
    ['password, pat, secret-key', ['--db-password', 'p', '--pat', 'q', '--secret-key=r'], ['--db-password', '[REDACTED:flag:--db-password]', '--pat', '[REDACTED:flag:--pat]', '--secret-key=[REDACTED:flag:--secret-key]']],
    ['boolean flags keep the next argument', ['--no-auth', 'server.js', '--max-tokens', '100'], ['--no-auth', 'server.js', '--max-tokens', '100']],
    ['a flag followed by a flag', ['--token', '--verbose'], ['--token', '--verbose']],
    ['NAME=value arguments (env, docker -e)', ['-e', 'GITHUB_TOKEN=abc', 'HOME=/root'], ['-e', 'GITHUB_TOKEN=[REDACTED:key:github_token]', 'HOME=/root']],
    ['token shapes in any argument', ['--header', 'Authorization: Bearer abc123def456'], ['--header', 'Authorization: [REDACTED:key:authorization]']],
    ['url credentials', ['postgres://u:pw@h/db'], ['postgres://[REDACTED:url-credentials]@h/db']],
  ])('%s', (_name, args, expected) => {
    expect(redactArgs(args)).toEqual(expected);
  });

  it.each([
    ['token', true],
    ['api-key', true],
    ['apiKey', true],
    ['github-pat', true],
    ['password', true],
    ['auth', true],
    ['no-auth', false],
    ['max-tokens', false],
    ['author', false],
    ['port', false],
    ['header', false],
    ['tokenizer', true],
  ])('isSecretFlag(%s) → %s', (name, secret) => {
    expect(isSecretFlag(name)).toBe(secret);
  });
});

describe('environment values', () => {
  const env = {
    GITHUB_TOKEN: 'gh-value-123456',
    OPENAI_API_KEY: 'openai-value-99',
    PGPASSWORD: 'pg-secret-value',
    SHORT_TOKEN: 'abc',
    HOME: '/home/me',
    LANG: 'en_US.UTF-8',
    MY_PLAIN: 'plain-but-secret',
  };

  it.each([
    ['GITHUB_TOKEN', true],
    ['OPENAI_API_KEY', true],
    ['PGPASSWORD', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['HOME', false],
    ['SSH_AUTH_SOCK', false],
    ['XDG_SESSION_TYPE', false],
    ['PWD', false],
    ['OLDPWD', false],
  ])('isSecretEnvName(%s) → %s', (name, secret) => {
    expect(isSecretEnvName(name)).toBe(secret);
  });

  it('takes secret-looking names (long enough values) and the names given explicitly', () => {
    const values = secretEnvValues(env, ['MY_PLAIN', 'NOT_SET']);
    expect(values.map((v) => v.name).sort()).toEqual(['GITHUB_TOKEN', 'MY_PLAIN', 'OPENAI_API_KEY', 'PGPASSWORD']);
  });

  it('replaces every occurrence, anywhere', () => {
    const opts: RedactOptions = { values: secretEnvValues(env, ['MY_PLAIN']) };
    expect(redactValue({ a: ['x gh-value-123456 y', { b: 'plain-but-secret' }], home: '/home/me' }, opts)).toEqual({
      a: ['x [REDACTED:env:GITHUB_TOKEN] y', { b: '[REDACTED:env:MY_PLAIN]' }],
      home: '/home/me',
    });
    expect(redactString('pg-secret-value/pg-secret-value', opts)).toBe('[REDACTED:env:PGPASSWORD]/[REDACTED:env:PGPASSWORD]');
  });
});

describe('user keys and patterns', () => {
  const opts: RedactOptions = { keys: ['internalRef', 'X-Tenant'], patterns: [/ACME-\d{4}/, /ticket #\d+/gi] };

  it('--redact-key redacts values under those keys at any depth', () => {
    expect(redactValue({ a: [{ internal_ref: 'r1', x_tenant: 't' }] }, opts)).toEqual({ a: [{ internal_ref: '[REDACTED:key:internal_ref]', x_tenant: '[REDACTED:key:x_tenant]' }] });
  });

  it('--redact-pattern replaces every match (with or without the g flag)', () => {
    expect(redactString('ACME-1234 and ACME-5678, Ticket #99', opts)).toBe('[REDACTED:pattern] and [REDACTED:pattern], [REDACTED:pattern]');
  });

  it('user options do not leak between calls', () => {
    expect(redactString('ACME-1234')).toBe('ACME-1234');
  });
});

describe('command-line redaction settings', () => {
  it('--redact-pattern takes a regex or /regex/flags and rejects bad ones in one line', async () => {
    const { parseUserPattern, redactOptionsFrom } = await import('../../src/transcript/redact-options.js');
    expect(redactString('Acme-12 acme-34', { patterns: [parseUserPattern('/acme-\\d+/i')] })).toBe('[REDACTED:pattern] [REDACTED:pattern]');
    expect(redactString('Acme-12 acme-34', { patterns: [parseUserPattern('acme-\\d+')] })).toBe('Acme-12 [REDACTED:pattern]');
    expect(() => parseUserPattern('([')).toThrow(/is not a valid regular expression/);
    expect(() => parseUserPattern('a*')).toThrow(/matches the empty string/);
    expect(() => parseUserPattern('/x/g')).toThrow(/flags may be i, m, s, u/);
    expect(() => redactOptionsFrom({ redactEnv: ['NOT A NAME'] }, {})).toThrow(/NAME of an environment variable/);
    const opts = redactOptionsFrom({ redactKey: ['ref'], redactEnv: ['PLAIN'] }, { PLAIN: 'plain-value', GITHUB_TOKEN: 'gh-value-1', HOME: '/root' });
    expect(opts.values).toEqual([
      { name: 'PLAIN', value: 'plain-value' },
      { name: 'GITHUB_TOKEN', value: 'gh-value-1' },
    ]);
    expect(redactValue({ ref: 'r', t: 'x gh-value-1 plain-value' }, opts)).toEqual({ ref: '[REDACTED:key:ref]', t: 'x [REDACTED:env:GITHUB_TOKEN] [REDACTED:env:PLAIN]' });
  });
});

describe('redactStrings (a report about a log)', () => {
  it('redacts every string and key by the text rules, keeps its own members and numbers, and two keys that redact alike', () => {
    const a = `sk-ant-api03-${'a'.repeat(40)}`;
    const b = `sk-ant-api03-${'b'.repeat(40)}`;
    const out = redactStrings({ session: 'abc-1', tokens: 42, rows: { [a]: 1, [b]: 2 }, problems: [{ message: `denied for ${a}` }] }) as Record<string, any>;
    expect(out.session).toBe('abc-1');
    expect(out.tokens).toBe(42);
    expect(Object.values(out.rows)).toEqual([1, 2]);
    expect(JSON.stringify(out)).not.toContain('aaaaaaaaaa');
    expect(JSON.stringify(out)).not.toContain('bbbbbbbbbb');
    expect(out.problems[0].message).toMatch(/^denied for \[REDACTED:/);
  });
});
