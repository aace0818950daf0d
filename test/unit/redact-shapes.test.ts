/**
 * Every token shape and header name docs/export.md lists, one row each: the secret inside a sentence is
 * replaced by its documented marker and nothing of it survives. Expectations are written by hand from the
 * doc's table, not taken from the code.
 */
import { describe, expect, it } from 'vitest';
import { redactString } from '../../src/transcript/redact.js';

const SHAPES: Array<[what: string, secret: string, marker: string]> = [
  ['Bearer', 'Bearer abcdef0123456789', 'bearer-token'],
  ['bearer (lower case)', 'bearer abcdef0123456789', 'bearer-token'],
  ['BEARER (upper case)', 'BEARER abcdef0123456789', 'bearer-token'],
  ['BeArEr (mixed case)', 'BeArEr abcdef0123456789', 'bearer-token'],
  ['OpenAI sk-', 'sk-proj-abcdefghijklmnop0123', 'openai-key'],
  ['Anthropic sk-ant-', 'sk-ant-api03-abcdefghijklmnop', 'anthropic-key'],
  ['Stripe sk_live_', 'sk_live_abcdefghij0123', 'stripe-key'],
  ['Stripe sk_test_', 'sk_test_abcdefghij0123', 'stripe-key'],
  ['Stripe rk_live_', 'rk_live_abcdefghij0123', 'stripe-key'],
  ['Stripe rk_test_', 'rk_test_abcdefghij0123', 'stripe-key'],
  ['GitHub ghp_', 'ghp_abcdefghijklmnopqrst0123', 'github-token'],
  ['GitHub gho_', 'gho_abcdefghijklmnopqrst0123', 'github-token'],
  ['GitHub ghu_', 'ghu_abcdefghijklmnopqrst0123', 'github-token'],
  ['GitHub ghs_', 'ghs_abcdefghijklmnopqrst0123', 'github-token'],
  ['GitHub ghr_', 'ghr_abcdefghijklmnopqrst0123', 'github-token'],
  ['GitHub github_pat_', 'github_pat_11ABCDEFG0123456789_abcdefghij', 'github-token'],
  ['Slack xoxa-', 'xoxa-0123456789-abcdef', 'slack-token'],
  ['Slack xoxb-', 'xoxb-0123456789-abcdef', 'slack-token'],
  ['Slack xoxp-', 'xoxp-0123456789-abcdef', 'slack-token'],
  ['Slack xoxr-', 'xoxr-0123456789-abcdef', 'slack-token'],
  ['Slack xoxs-', 'xoxs-0123456789-abcdef', 'slack-token'],
  ['Slack xoxe-', 'xoxe-0123456789-abcdef', 'slack-token'],
  ['AWS AKIA', 'AKIAABCDEFGHIJKLMNOP', 'aws-access-key'],
  ['AWS ASIA', 'ASIAABCDEFGHIJKLMNOP', 'aws-access-key'],
  ['Google AIza', 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234', 'google-api-key'],
  ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlMDEyMw', 'jwt'],
  ['PEM private key', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----', 'private-key'],
  ['URL credentials', 'postgres://admin:hunter2secret@db.example.com', 'url-credentials'],
];

describe('token shapes (docs/export.md)', () => {
  for (const [what, secret, marker] of SHAPES) {
    it(`${what} → [REDACTED:${marker}]`, () => {
      const out = redactString(`before ${secret} after`);
      expect(out).toContain(`[REDACTED:${marker}]`);
      // the token itself is gone (a Bearer keeps its keyword, URL credentials their scheme and host)
      const token = secret.replace(/^bearer\s+/i, '').replace(/^postgres:\/\/|@db\.example\.com$/g, '');
      expect(out).not.toContain(token);
      expect(out.startsWith('before ')).toBe(true);
    });
  }
});

const HEADERS = ['Authorization', 'Proxy-Authorization', 'Cookie', 'Set-Cookie', 'X-API-Key', 'API-Key', 'X-Auth-Token'];

describe('header lines (docs/export.md)', () => {
  for (const name of HEADERS) {
    for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
      it(`${spelled}: value → [REDACTED:key:${name.toLowerCase()}]`, () => {
        const out = redactString(`${spelled}: opaque-value-1234`);
        expect(out).toBe(`${spelled}: [REDACTED:key:${name.toLowerCase()}]`);
      });
    }
  }
});
