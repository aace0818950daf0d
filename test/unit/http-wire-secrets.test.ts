/**
 * HTTP mode, the spellings of a secret the headers do not show as such: a Basic credential decoded, a
 * secret-named query value (a redirect's code, an API key in the URL), each also percent- and
 * form-encoded; a Latin-1 Basic credential, a quoted cookie; a head full of signed URLs, which adds a
 * bounded number of them (in one pass) and leaves the credentials masked; and the header lists, which
 * mask a secret header's value whatever its length.
 */
import { describe, expect, it } from 'vitest';
import { basicSecrets } from '../../src/http/basic-auth.js';
import { headerSecrets, maskHeaders, MAX_URL_SECRETS } from '../../src/http/mask.js';
import { looksSecretParam, queryMarker, querySecrets, urlSpellings } from '../../src/http/query-secrets.js';
import { EnvMasker } from '../../src/log/env-mask.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const body = (t: string) => `${JSON.stringify({ msg: { text: t } })}\n`;
const AUTH = '[REDACTED:authorization]';

/** A masker that learned `secrets`, as the proxy's learns what passes. */
function learned(secrets: Array<{ value: string; marker: string }>): EnvMasker {
  const masker = new EnvMasker([]);
  for (const s of secrets) masker.learn(s.value, s.marker);
  return masker;
}

describe('a Basic credential', () => {
  it('decodes to user:password and the password; an empty password makes the user the secret', () => {
    expect(basicSecrets(b64('alice:pw:with/colon'))).toEqual(['alice:pw:with/colon', 'pw:with/colon']);
    expect(basicSecrets(b64('sk_live_0123456789:'))).toEqual(['sk_live_0123456789:', 'sk_live_0123456789']);
    expect(basicSecrets(b64('élodie:mot-de-passe-é'))).toEqual(['élodie:mot-de-passe-é', 'mot-de-passe-é']);
  });

  it('is no secret text when it is not base64 of text with a colon', () => {
    for (const c of ['not base64!', b64('no-colon-here'), Buffer.from([0x61, 0xff, 0xfe, 0xfd]).toString('base64'), '']) expect(basicSecrets(c)).toEqual([]);
  });

  it('not UTF-8 is read as Latin-1, as clients that send Latin-1 (Python requests) mean it', () => {
    const latin1 = Buffer.from('jürgen:pässwort-1ß', 'latin1').toString('base64');
    expect(basicSecrets(latin1)).toEqual(['jürgen:pässwort-1ß', 'pässwort-1ß']);
    const masker = learned(headerSecrets(['Authorization', `Basic ${latin1}`]));
    expect(masker.maskLine(body('hello jürgen, your password is pässwort-1ß'))).toBe(body(`hello jürgen, your password is ${AUTH}`));
  });

  it('is decoded whatever the case of its scheme (`basic`, `BASIC`)', () => {
    for (const scheme of ['basic', 'BASIC', 'bAsIc']) {
      const masker = learned(headerSecrets(['Authorization', `${scheme} ${b64('alice:pw-PLANTED-case')}`]));
      expect(masker.maskLine(body('pw-PLANTED-case')), scheme).toBe(body(AUTH));
    }
  });

  it('of a password with spaces and `~` is masked form-encoded too (a space as +, as URLSearchParams writes it)', () => {
    const password = 'correct horse~battery';
    const masker = learned(headerSecrets(['Authorization', `Basic ${b64(`alice:${password}`)}`]));
    const form = new URLSearchParams({ p: password }).toString().slice(2);
    expect(form).toBe('correct+horse%7Ebattery');
    expect(masker.maskLine(body(`${password} ${encodeURIComponent(password)} ${form}`))).toBe(body(`${AUTH} ${AUTH} ${AUTH}`));
  });

  it('is masked wherever a body repeats it: the credential, the pair, the password, each percent-encoded', () => {
    const password = 'pw/PLANTED+9e2c';
    const secrets = headerSecrets(['Authorization', `Basic ${b64(`alice:${password}`)}`]);
    expect(secrets.every((s) => s.marker === AUTH)).toBe(true);
    expect(secrets.map((s) => s.value)).toEqual(expect.arrayContaining([b64(`alice:${password}`), `alice:${password}`, password, encodeURIComponent(password)]));
    const masker = learned(secrets);
    const line = `sent ${b64(`alice:${password}`)}; decoded alice:${password}; password ${password}; in a URL https://alice:${encodeURIComponent(password)}@example.com/`;
    expect(masker.maskLine(body(line))).toBe(body(`sent ${AUTH}; decoded ${AUTH}; password ${AUTH}; in a URL https://alice:${AUTH}@example.com/`));
  });

  it('Bearer: the token without its scheme word is the secret, masked with or without the scheme in a body', () => {
    const masker = learned(headerSecrets(['Authorization', 'Bearer tok/PLANTED+0123']));
    expect(masker.maskLine(body('Bearer tok/PLANTED+0123, tok/PLANTED+0123, tok%2FPLANTED%2B0123'))).toBe(body(`Bearer ${AUTH}, ${AUTH}, ${AUTH}`));
  });
});

describe('secret query values', () => {
  it('are the values of secret-named parameters', () => {
    for (const n of ['code', 'key', 'sig', 'password', 'pwd', 'token', 'access_token', 'refresh_token', 'id_token', 'client_secret', 'api_key', 'apiKey', 'api-key', 'X-Amz-Signature', 'X-Amz-Credential', 'x-amz-security-token', 'signature', 'sessionId', 'device_code', 'subscription-key', 'client_assertion', 'jwt', 'subject_token']) {
      expect(looksSecretParam(n), n).toBe(true);
    }
    for (const n of ['state', 'scope', 'redirect_uri', 'client_id', 'response_type', 'code_challenge', 'code_challenge_method', 'page', 'keyword', 'author', 'nonce', 'token_type', 'token_type_hint', 'subject_token_type']) expect(looksSecretParam(n), n).toBe(false);
  });

  it('are not the values of names that say what kind or how, or of keys and codes that are no secrets', () => {
    for (const n of ['oauth_signature_method', 'session_mode', 'token_count', 'token_format', 'sort_key', 'sortKey', 'public_key', 'partition-key', 'primary_key', 'country_code', 'zip_code', 'postal_code', 'currency_code', 'language_code', 'status_code', 'error_code']) {
      expect(looksSecretParam(n), n).toBe(false);
    }
    // their sisters that hold secrets stay secret
    for (const n of ['oauth_signature', 'session_id', 'private_key', 'secret_key', 'access_key', 'device_code', 'auth_code', 'user_code']) expect(looksSecretParam(n), n).toBe(true);
    // a paginating Link's sort key, repeated by the body as a field name: kept
    const masker = learned(headerSecrets(['Link', '<https://api.example/items?page=2&sort_key=updated_at&sig=LINK-SIGNATURE-2>; rel="next"']));
    expect(masker.maskLine(body('sorted by updated_at, signed LINK-SIGNATURE-2'))).toBe(body('sorted by updated_at, signed [REDACTED:query:sig]'));
  });

  it('are learned as sent, decoded (+ as a space too) and percent-encoded, with a marker naming the parameter', () => {
    expect(querySecrets('http://127.0.0.1:9/cb?code=AUTH%2FCODE%2B77&state=state-value-1234')).toEqual([
      { value: 'AUTH%2FCODE%2B77', marker: '[REDACTED:query:code]' },
      { value: 'AUTH/CODE+77', marker: '[REDACTED:query:code]' },
    ]);
    expect(querySecrets('/mcp?api_key=two+words+key').map((s) => s.value)).toEqual(['two+words+key', 'two%2Bwords%2Bkey', 'two words key', 'two%20words%20key']);
    // an implicit grant's fragment; a name percent-encoded; no value, no name, a bad escape
    expect(querySecrets('/cb#access_token=FRAGMENT-TOKEN-1&token_type=bearer')).toEqual([{ value: 'FRAGMENT-TOKEN-1', marker: '[REDACTED:query:access_token]' }]);
    expect(querySecrets('/x?api%5Fkey=ENCODED-NAME-1&=x&token=&sig=%E0%A4%A')).toEqual([
      { value: 'ENCODED-NAME-1', marker: '[REDACTED:query:api_key]' },
      { value: '%E0%A4%A', marker: '[REDACTED:query:sig]' },
    ]);
    expect(querySecrets('/mcp')).toEqual([]);
    expect(queryMarker('X-Amz-Signature"\\')).toBe('[REDACTED:query:x-amz-signature??]');
  });

  it('of a Location, Content-Location, Referer or Link header are learned; the header lists mask every query value', () => {
    const raw = [
      'Location', 'http://127.0.0.1:9/cb?code=LOCATION-CODE-1&state=plain-state-1',
      'Referer', 'http://127.0.0.1:9/page?token=REFERER-TOKEN-1',
      'Link', '<https://a.example/next?sig=LINK-SIGNATURE-1>; rel="next", <https://a.example/x?page=2>; rel="last"',
    ];
    expect(headerSecrets(raw)).toEqual([
      { value: 'LOCATION-CODE-1', marker: '[REDACTED:query:code]' },
      { value: 'REFERER-TOKEN-1', marker: '[REDACTED:query:token]' },
      { value: 'LINK-SIGNATURE-1', marker: '[REDACTED:query:sig]' },
    ]);
    const masker = learned(headerSecrets(raw));
    expect(masker.maskLine(body('code LOCATION-CODE-1 state plain-state-1'))).toBe(body('code [REDACTED:query:code] state plain-state-1'));
    expect(maskHeaders(raw.slice(0, 2))).toEqual([['Location', 'http://127.0.0.1:9/cb?code=[REDACTED:query]&state=[REDACTED:query]']]);
  });

  it('every learned header secret is also learned percent-encoded', () => {
    expect(urlSpellings('plain-value-1')).toEqual(['plain-value-1']);
    expect(urlSpellings('a/b+c=')).toEqual(['a/b+c=', 'a%2Fb%2Bc%3D']);
    expect(urlSpellings('lone\ud800')).toEqual(['lone\ud800']);
    const masker = learned(headerSecrets(['X-Api-Key', 'key/PLANTED+01', 'Cookie', 'sid=cookie/PLANTED+02']));
    expect(masker.maskLine(body('key%2FPLANTED%2B01 cookie%2FPLANTED%2B02'))).toBe(body('[REDACTED:header:x-api-key] [REDACTED:cookie]'));
  });
});

describe('a quoted cookie value', () => {
  it('is masked with and without its quotes', () => {
    const masker = learned(headerSecrets(['Cookie', 'sid="quoted-PLANTED-77"', 'Set-Cookie', 'srv="server-PLANTED-88"; Path=/']));
    expect(masker.maskLine(body('quoted-PLANTED-77 server-PLANTED-88'))).toBe(body('[REDACTED:cookie] [REDACTED:cookie]'));
  });
});

describe('a head full of URLs', () => {
  /** A Link of `n` signed URLs, each a distinct sig. */
  const signedLinks = (n: number): string => Array.from({ length: n }, (_, i) => `<https://cdn.example/f${i}?sig=SIG-${String(i).padStart(8, '0')}>; rel="item"`).join(', ');

  it('adds at most MAX_URL_SECRETS query values, before its other secrets', () => {
    const secrets = headerSecrets(['Link', signedLinks(100), 'Set-Cookie', 'srv=cookie-PLANTED-99'], '/mcp?api_key=url-key-PLANTED-1');
    expect(secrets.map((x) => x.value)).toEqual(['url-key-PLANTED-1', ...Array.from({ length: MAX_URL_SECRETS - 1 }, (_, i) => `SIG-${String(i).padStart(8, '0')}`), 'cookie-PLANTED-99']);
  });

  it('of a hundred cookies does not push its own credential, session id or API key out of what the log masks', () => {
    const cookies = Array.from({ length: 100 }, (_, i) => `c${i}=cookie-${String(i).padStart(8, '0')}`).join('; ');
    const masker = learned(headerSecrets(['Authorization', 'Bearer bearer-PLANTED-3c4d', 'Mcp-Session-Id', 'session-PLANTED-5e6f', 'X-Api-Key', 'key-PLANTED-7a8b', 'Cookie', cookies]));
    expect(masker.maskLine(body('bearer-PLANTED-3c4d key-PLANTED-7a8b cookie-00000099'))).toBe(body(`${AUTH} [REDACTED:header:x-api-key] [REDACTED:cookie]`));
    expect(masker.maskLine(body('session-PLANTED-5e6f'))).not.toContain('session-PLANTED');
  });

  it("does not push the credential of the request it answers out of what the log masks", () => {
    const masker = learned(headerSecrets(['Authorization', 'Bearer bearer-PLANTED-0a1b'], '/mcp'));
    // the response's head: a Link of hundreds of signed URLs; then its body repeats the request's token
    for (let round = 0; round < 3; round++) for (const s of headerSecrets(['Link', signedLinks(300)])) masker.learn(s.value, s.marker);
    expect(masker.maskLine(body('you sent bearer-PLANTED-0a1b'))).toBe(body(`you sent ${AUTH}`));
  });

  it('is read in one pass: a 64 KB Authorization or Link value costs no more than a few milliseconds', () => {
    const big = 64 * 1024;
    // an Authorization with a long run of spaces before its end, a Link of `<` without `>`
    for (const raw of [['Authorization', `Bearer x${' '.repeat(big)}y`], ['Proxy-Authorization', `${'a'.repeat(big)} b`], ['Link', '<'.repeat(big)], ['Link', `<${'x'.repeat(big)}`]]) {
      const t = performance.now();
      headerSecrets(raw);
      expect(performance.now() - t, raw[0]).toBeLessThan(500);
    }
  });
});

describe('the header lists mask a secret header whatever its length', () => {
  it('a 1-character value of each kind reads as its marker; a cookie without a name too', () => {
    const raw = ['Authorization', 'Basic x', 'Authorization', 'x', 'Proxy-Authorization', 'Bearer y', 'Cookie', 'z', 'Cookie', 'a=1; b', 'Set-Cookie', 'q', 'X-Api-Key', 'k', 'X-Auth-Token', ''];
    expect(maskHeaders(raw)).toEqual([
      ['Authorization', `Basic ${AUTH}`],
      ['Authorization', AUTH],
      ['Proxy-Authorization', `Bearer ${AUTH}`],
      ['Cookie', '[REDACTED:cookie]'],
      ['Cookie', 'a=[REDACTED:cookie]; [REDACTED:cookie]'],
      ['Set-Cookie', '[REDACTED:cookie]'],
      ['X-Api-Key', '[REDACTED:header]'],
      ['X-Auth-Token', '[REDACTED:header]'],
    ]);
  });

  it('a value under 8 characters is not masked where a body repeats it (ordinary words would be)', () => {
    const secrets = headerSecrets(['X-Api-Key', 'true', 'Cookie', 'yes-1234']);
    expect(secrets.map((s) => s.value)).toEqual(['yes-1234', 'true']);
    expect(learned(secrets).maskLine(body('true and yes-1234'))).toBe(body('true and [REDACTED:cookie]'));
  });
});
