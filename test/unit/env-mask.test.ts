/** Which environment values count as secrets, and how a serialized record is masked. */
import { describe, expect, it } from 'vitest';
import { EnvMasker } from '../../src/log/env-mask.js';
import { envSecrets, looksSecretEnvName } from '../../src/log/env-secrets.js';

describe('looksSecretEnvName', () => {
  const secret = ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'PGPASSWORD', 'MYSQL_PASSWD', 'BASIC_AUTH', 'GOOGLE_CREDENTIALS', 'SSH_PRIVATE_KEY_PATH', 'SESSION_COOKIE', 'FLASK_SESSION', 'SENTRY_DSN', 'apiKey'];
  const plain = ['PATH', 'HOME', 'LANG', 'SSH_AUTH_SOCK', 'XDG_SESSION_TYPE', 'DBUS_SESSION_BUS_ADDRESS', 'NODE_ENV'];
  for (const n of secret) it(`${n} looks secret`, () => expect(looksSecretEnvName(n)).toBe(true));
  for (const n of plain) it(`${n} does not`, () => expect(looksSecretEnvName(n)).toBe(false));
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
