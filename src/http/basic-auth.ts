/**
 * The secret parts of a Basic credential (pure): `Authorization: Basic <base64(user:password)>` holds
 * the password in clear once decoded, and a server that echoes what it decoded repeats `user:password`
 * or the password alone. They are spellings of the header's secret, masked as the credential is.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `user:password` and the password of a Basic credential; with an empty password the user instead (an
 * API key sent as the user name). Decoded as UTF-8, or as Latin-1 when it is not UTF-8 (RFC 7617 leaves
 * the charset open: Python's requests, among others, sends Latin-1). None when the credential is not
 * base64 of text with a colon.
 */
export function basicSecrets(credential: string): string[] {
  if (!BASE64.test(credential)) return [];
  const bytes = Buffer.from(credential, 'base64');
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = bytes.toString('latin1');
  }
  const colon = text.indexOf(':');
  if (colon < 0) return [];
  const password = text.slice(colon + 1);
  return [text, password === '' ? text.slice(0, colon) : password];
}
