/** Security lens, credentials on the wire: the redactor's shapes found in any string of a message part, named by kind and path, never by value. */
import { describe, expect, it } from 'vitest';
import { describeHits, findCredentials } from '../../src/lens/security/credentials.js';

const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GH = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('findCredentials', () => {
  it.each([
    ['an AWS key in text', { content: [{ type: 'text', text: `key ${AWS}` }] }, [{ kind: 'aws-access-key', where: 'content[0].text' }]],
    ['a GitHub token in structuredContent', { structuredContent: { deep: { t: GH } } }, [{ kind: 'github-token', where: 'structuredContent.deep.t' }]],
    ['an Authorization member', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }, [{ kind: 'key:authorization', where: 'headers.Authorization' }]],
    ['an Authorization header line in text', { text: 'Authorization: Basic dXNlcjpwYXNzd29yZA==' }, [{ kind: 'key:authorization', where: 'text' }]],
    ['a PEM block', { text: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----' }, [{ kind: 'private-key', where: 'text' }]],
    ['a JWT', { t: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }, [{ kind: 'jwt', where: 't' }]],
  ])('finds %s', (_n, value, hits) => {
    expect(findCredentials(value, '')).toEqual(hits);
  });

  it.each([
    ['plain text', { content: [{ type: 'text', text: 'the weather is fine' }] }],
    ['a redaction marker under Authorization', { authorization: '[REDACTED:env:TOKEN]' }],
    ['a redaction marker in a header line (a redacted copy, as mcp-tap mcp answers)', { text: 'sent Authorization: [REDACTED:key:authorization] and Bearer [REDACTED:bearer-token]' }],
    ['a progress token', { progressToken: 'abc123def456' }],
    ['"Bearer token" in prose', { text: 'send a Bearer token in the header' }],
  ])('finds nothing in %s', (_n, value) => {
    expect(findCredentials(value, '')).toEqual([]);
  });

  it('describes hits by kind and place, without the secret', () => {
    const text = describeHits(findCredentials({ content: [{ type: 'text', text: `${AWS} and ${GH}` }] }, ''));
    expect(text).toBe('an aws-access-key at content[0].text; a github-token at content[0].text');
    expect(text).not.toContain(AWS);
    expect(text).not.toContain(GH);
  });
});
