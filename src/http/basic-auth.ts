/**
 * The secret parts of a Basic credential (pure): `Authorization: Basic <base64(user:password)>` holds
 * the password in clear once decoded, and a server that echoes what it decoded repeats `user:password`
 * or the password alone. They are spellings of the header's secret, masked as the credential is.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `user:password` and the password of a Basic credential; with an empty password the user instead (an
 * API key sent as the user name). None when the credential does not decode to UTF-8 text with a colon.
 */
export function basicSecrets(credential: string): string[] {
  if (!BASE64.test(credential)) return [];
  let text: string;
  try {
    text = UTF8.decode(Buffer.from(credential, 'base64'));
  } catch {
    return [];
  }
  const colon = text.indexOf(':');
  if (colon < 0) return [];
  const password = text.slice(colon + 1);
  return [text, password === '' ? text.slice(0, colon) : password];
}
