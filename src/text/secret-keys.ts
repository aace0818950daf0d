/**
 * Which JSON keys name a secret (`password`, `apiKey`, `session…`): shared by the redactor and the
 * security lens (a new required argument that asks for a secret). Pure.
 */

/** A key or flag name with case and separators removed: `API-Key`, `api_key`, `apiKey` → `apikey`. */
export function norm(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

const EXACT_KEYS = new Set(['authorization', 'proxyauthorization', 'auth', 'cookie', 'setcookie', 'passwd', 'password', 'secret', 'token']);
const KEY_SUFFIXES = ['token', 'secret', 'password', 'passwd', 'apikey', 'privatekey', 'accesskey', 'secretkey', 'credential', 'credentials', 'cookie', 'authorization'];
/** Keys that end like a secret but are protocol plumbing. */
const NOT_SECRET_KEYS = new Set(['progresstoken']);

/** True for a key whose value is a secret (issue rules: the listed names, `session…`, at any depth). */
export function isSecretKey(name: string, extra: ReadonlySet<string> = new Set()): boolean {
  const k = norm(name);
  if (k.length === 0) return false;
  if (extra.has(k)) return true;
  if (NOT_SECRET_KEYS.has(k)) return false;
  if (EXACT_KEYS.has(k) || k.startsWith('session')) return true;
  return KEY_SUFFIXES.some((s) => k.endsWith(s));
}
