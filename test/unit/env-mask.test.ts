/** Which environment values count as secrets, and how a serialized record is masked. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeEscapes, EnvMasker } from '../../src/log/env-mask.js';
import { envSecrets, looksSecretEnvName } from '../../src/log/env-secrets.js';

describe('looksSecretEnvName', () => {
  const secret = ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'PGPASSWORD', 'MYSQL_PASSWD', 'BASIC_AUTH', 'GOOGLE_CREDENTIALS', 'SSH_PRIVATE_KEY_PATH', 'SESSION_COOKIE', 'FLASK_SESSION', 'SENTRY_DSN', 'apiKey'];
  const plain = ['PATH', 'HOME', 'LANG', 'SSH_AUTH_SOCK', 'XDG_SESSION_TYPE', 'DBUS_SESSION_BUS_ADDRESS', 'NODE_ENV'];
  for (const n of secret) it(`${n} looks secret`, () => expect(looksSecretEnvName(n)).toBe(true));
  for (const n of plain) it(`${n} does not`, () => expect(looksSecretEnvName(n)).toBe(false));
});

describe('looksSecretEnvName: each listed word alone makes a name secret (issue 27)', () => {
  // each name holds exactly one of the words, none of the others
  const alone: Record<string, string[]> = {
    KEY: ['KEY', 'STRIPE_KEY', 'keyfile'],
    TOKEN: ['TOKEN', 'NPM_TOKEN', 'slackToken'],
    SECRET: ['SECRET', 'CLIENT_SECRET', 'jwt_secret'],
    PASSWORD: ['PASSWORD', 'DB_PASSWORD', 'smtpPassword'],
    PASSWD: ['PASSWD', 'MYSQL_PASSWD'],
    AUTH: ['AUTH', 'NPM_AUTH', 'oauthClient'],
    CREDENTIAL: ['CREDENTIAL', 'GCP_CREDENTIAL_JSON', 'credentials'],
    PRIVATE: ['PRIVATE', 'PRIVATE_PEM', 'gpgPrivate'],
    COOKIE: ['COOKIE', 'COOKIE_JAR', 'loginCookie'],
    SESSION: ['SESSION', 'SESSION_ID', 'railsSession'],
    DSN: ['DSN', 'DATABASE_DSN', 'sentryDsn'],
  };
  const words = Object.keys(alone);
  for (const [word, names] of Object.entries(alone)) {
    for (const name of names) {
      it(`${name} (only ${word}) is secret, and its value is masked`, () => {
        expect(words.filter((w) => name.toUpperCase().includes(w))).toEqual([word]);
        expect(looksSecretEnvName(name)).toBe(true);
        expect(envSecrets({ [name]: 'value-0123456789' })).toEqual([{ name, value: 'value-0123456789' }]);
      });
    }
  }
  it('the socket and desktop-session names stay plain only in their exact forms', () => {
    for (const n of ['SSH_AUTH_SOCK', 'GPG_AGENT_SOCK', 'XDG_SESSION_ID', 'DBUS_SESSION_BUS_ADDRESS']) expect(looksSecretEnvName(n), n).toBe(false);
    for (const n of ['SSH_AUTH_SOCKET_KEY', 'MY_XDG_SESSION_TOKEN', 'DBUS_SESSION_BUS_ADDRESS_2', 'SOCK_TOKEN']) expect(looksSecretEnvName(n), n).toBe(true);
  });
});

describe('envSecrets', () => {
  it('takes values of at least 8 characters of secret-looking and --redact-env names, longest first', () => {
    const short: string[] = [];
    const got = envSecrets({ API_KEY: 'abcdefgh', GITHUB_TOKEN: 'ghp_0123456789abcdef', DEBUG_TOKEN: 'short', ACCOUNT: '1234567890', PATH: '/usr/bin:/bin', PIN: '1234' }, ['ACCOUNT', 'PIN'], (n) => short.push(n));
    expect(got).toEqual([
      { name: 'GITHUB_TOKEN', value: 'ghp_0123456789abcdef' },
      { name: 'ACCOUNT', value: '1234567890' },
      { name: 'API_KEY', value: 'abcdefgh' },
    ]);
    expect(short).toEqual(['PIN']);
  });
});

describe('EnvMasker.maskLine', () => {
  const m = new EnvMasker([
    { name: 'B_TOKEN', value: 'tok"en\\12345' },
    { name: 'A_KEY', value: 'abcdefgh' },
  ]);
  it('returns a line without secrets as it is (the same string)', () => {
    const line = '{"v":1,"msg":{"x":"nothing here"}}\n';
    expect(m.maskLine(line)).toBe(line);
    expect(m.hitsText(line)).toBe(false);
    expect(m.hitsBytes(Buffer.from(line))).toBe(false);
  });
  it('masks raw and JSON-escaped occurrences, in values and keys', () => {
    const line = `${JSON.stringify({ v: 1, raw: 'x abcdefgh y', esc: 'tok"en\\12345', abcdefgh: 1 })}\n`;
    expect(m.hitsBytes(Buffer.from(line))).toBe(true);
    expect(JSON.parse(m.maskLine(line))).toEqual({ v: 1, raw: 'x [REDACTED:env A_KEY] y', esc: '[REDACTED:env B_TOKEN]', '[REDACTED:env A_KEY]': 1 });
  });
  it('rebuilds the record when a value is a number in it', () => {
    const n = new EnvMasker([{ name: 'ACCOUNT', value: '12345678' }]);
    const out = n.maskLine('{"v":1,"msg":{"id":12345678,"big":9912345678}}\n');
    expect(out.endsWith('\n')).toBe(true);
    expect(JSON.parse(out)).toEqual({ v: 1, msg: { id: '[REDACTED:env ACCOUNT]', big: '99[REDACTED:env ACCOUNT]' } });
  });
});

/** `value` as a JSON string body with the characters at `escaped` written as \uXXXX (`upper`: hex in capitals). */
function spell(value: string, escaped: (i: number) => boolean, upper = false): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (escaped(i)) {
      const hex = c.toString(16).padStart(4, '0');
      out += `\\u${upper ? hex.toUpperCase() : hex}`;
    } else out += JSON.stringify(value[i]).slice(1, -1);
  }
  return out;
}

describe('EnvMasker: every JSON spelling of a secret (issue 27)', () => {
  const secret = 's3cr&t<pw>42';
  const m = new EnvMasker([{ name: 'DB_PASSWORD', value: secret }]);
  const record = (body: string) => `{"v":1,"kind":"error","msg":{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"login failed for ${body}"}}}\n`;
  const masked = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'login failed for [REDACTED:env DB_PASSWORD]' } };

  it("masks Go's encoding/json spelling (& < > as \\u0026 \\u003c \\u003e)", () => {
    const line = record('s3cr\\u0026t\\u003cpw\\u003e42');
    expect(JSON.parse(line).msg.error.message).toBe(`login failed for ${secret}`); // what every reader would show
    expect(m.hitsText(line)).toBe(true);
    expect(m.hitsBytes(Buffer.from(line))).toBe(true);
    const out = m.maskLine(line);
    expect(out.endsWith('}\n')).toBe(true);
    expect(JSON.parse(out).msg).toEqual(masked);
  });

  it('masks upper-case hex, every character escaped, and \\/ for a slash', () => {
    for (const body of [spell(secret, (i) => i === 4, true), spell(secret, () => true), spell(secret, () => true, true)]) expect(JSON.parse(m.maskLine(record(body))).msg).toEqual(masked);
    const slash = new EnvMasker([{ name: 'API_KEY', value: 'ab/cd/ef/gh' }]);
    expect(JSON.parse(slash.maskLine('{"v":1,"t":"x ab\\/cd\\/ef\\/gh y"}\n')).t).toBe('x [REDACTED:env API_KEY] y');
  });

  it('masks a non-ASCII secret written with \\u escapes, surrogate pairs included', () => {
    const v = 'pässwörd-🔑-42';
    const n = new EnvMasker([{ name: 'APP_SECRET', value: v }]);
    const ascii = JSON.stringify({ v: 1, t: `[${v}]` }).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(ascii).not.toMatch(/[^\x00-\x7f]/); // Python's json.dumps default
    expect(JSON.parse(n.maskLine(`${ascii}\n`)).t).toBe('[[REDACTED:env APP_SECRET]]');
  });

  it('masks any mix of raw characters and escapes (property), and keeps every other value of the record', () => {
    const chars = fc.constantFrom('a', 'Z', '9', '&', '<', '>', '"', '\\', '/', 'é', '\n', ' ');
    fc.assert(
      fc.property(fc.array(chars, { minLength: 8, maxLength: 20 }), fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }), fc.boolean(), (cs, esc, upper) => {
        const value = cs.join('');
        const mm = new EnvMasker([{ name: 'X_TOKEN', value }]);
        const line = `{"v":1,"seq":3,"msg":{"a":"<${spell(value, (i) => esc[i]!, upper)}>","b":"keep \\u00e9"}}\n`;
        const out = mm.maskLine(line);
        const rec = JSON.parse(out) as { seq: number; msg: { a: string; b: string } };
        expect(rec.msg.a).toBe('<[REDACTED:env X_TOKEN]>');
        expect(rec.msg.b).toBe('keep é');
        expect(rec.seq).toBe(3);
        expect(mm.hitsText(out)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('masks a key spelled with escapes, and every value beside it', () => {
    const line = '{"v":1,"msg":{"s3cr\\u0026t\\u003cpw\\u003e42":{"again":"s3cr&t\\u003Cpw>42"},"n":1}}\n';
    expect(JSON.parse(m.maskLine(line))).toEqual({ v: 1, msg: { '[REDACTED:env DB_PASSWORD]': { again: '[REDACTED:env DB_PASSWORD]' }, n: 1 } });
  });

  it('masks a secret in JSON text inside a string (a structured stderr line, a tool result): escapes escaped again, at any depth', () => {
    // Go's encoding/json inside a JSON string: the inner \u0026 is written \\u0026 on the line
    const inner = `{"level":"error","msg":"login rejected for ${spell(secret, (i) => '&<>'.includes(secret[i]!))}"}`;
    const expected = '{"level":"error","msg":"login rejected for [REDACTED:env DB_PASSWORD]"}';
    let raw = inner;
    let want = expected;
    for (let depth = 1; depth <= 3; depth++) {
      const line = `${JSON.stringify({ v: 1, kind: 'stderr', raw })}\n`;
      expect(m.hitsText(line), `depth ${depth}`).toBe(true);
      expect(m.hitsBytes(Buffer.from(line)), `depth ${depth}`).toBe(true);
      const out = m.maskLine(line);
      expect(JSON.parse(out).raw, `depth ${depth}`).toBe(want);
      expect(m.hitsText(out), `depth ${depth}`).toBe(false);
      // one level deeper: this JSON text as a string inside another JSON document
      raw = JSON.stringify({ text: raw });
      want = JSON.stringify({ text: want });
    }
  });

  it('masks a value that starts with a quote or ends with a backslash in JSON text inside a string, with its escapes', () => {
    // found by the property below: one level down the value's quote is spelled \" and its backslash \\, and
    // masking without the backslash of those escapes left \[REDACTED…] or [REDACTED…]\ behind, not JSON
    for (const value of ['"aaaaaaa', 'aaaaaaa\\', '"a"b\\c"', '\\a"b\\']) {
      const mm = new EnvMasker([{ name: 'X_TOKEN', value }]);
      let raw = `{"k":"<${JSON.stringify(value).slice(1, -1)}>"}`;
      let want = '{"k":"<[REDACTED:env X_TOKEN]>"}';
      for (let depth = 1; depth <= 3; depth++) {
        const out = mm.maskLine(`${JSON.stringify({ v: 1, seq: 3, raw })}\n`);
        expect(JSON.parse(out), `${value} at depth ${depth}`).toEqual({ v: 1, seq: 3, raw: want });
        raw = JSON.stringify({ t: raw });
        want = JSON.stringify({ t: want });
      }
    }
  });

  it('masks any spelling of a secret in JSON text inside a string, every other character kept (property)', () => {
    const chars = fc.constantFrom('a', 'Z', '9', '&', '<', '"', '\\', '/', 'é', '\n', ' ');
    fc.assert(
      fc.property(fc.array(chars, { minLength: 8, maxLength: 16 }), fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }), fc.integer({ min: 1, max: 3 }), (cs, esc, depth) => {
        const value = cs.join('');
        const mm = new EnvMasker([{ name: 'X_TOKEN', value }]);
        let raw = `{"k":"<${spell(value, (i) => esc[i]!)}>","b":"keep \\u00e9"}`;
        let want = '{"k":"<[REDACTED:env X_TOKEN]>","b":"keep \\u00e9"}';
        for (let d = 1; d < depth; d++) {
          raw = JSON.stringify({ t: raw });
          want = JSON.stringify({ t: want });
        }
        const out = mm.maskLine(`${JSON.stringify({ v: 1, seq: 3, raw })}\n`);
        expect(JSON.parse(out)).toEqual({ v: 1, seq: 3, raw: want });
        expect(mm.hitsText(out)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a line with escapes but no secret byte for byte', () => {
    const line = '{"v":1,"t":"s3cr\\u0026t\\u003cpw\\u003e4","u":"a\\nb \\\\u0026"}\n';
    expect(m.hitsText(line)).toBe(false);
    expect(m.hitsBytes(Buffer.from(line))).toBe(false);
    expect(m.maskLine(line)).toBe(line);
  });
});

describe('decodeEscapes', () => {
  it('decodes every JSON escape and leaves a malformed one and an escaped backslash as written', () => {
    expect(decodeEscapes('a\\u0026b\\"c\\\\d\\/e\\n\\t\\b\\f\\r')).toBe('a&b"c\\d/e\n\t\b\f\r');
    expect(decodeEscapes('\\\\u0026')).toBe('\\u0026');
    expect(decodeEscapes('x\\u12G4 \\q')).toBe('x\\u12G4 \\q');
    expect(decodeEscapes('\\ud83d\\udd11')).toBe('🔑');
    expect(decodeEscapes('end \\u00')).toBe('end \\u00');
  });

  it('gives what JSON.parse gives for any string body, however it is escaped (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), fc.boolean(), (value, esc, upper) => {
        const body = spell(value, (i) => esc[i] === true, upper);
        expect(decodeEscapes(body)).toBe(JSON.parse(`"${body}"`));
      }),
      { numRuns: 500 },
    );
  });
});
