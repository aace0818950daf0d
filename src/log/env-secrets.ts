/**
 * Which values of the server's environment are secrets the log must never hold: the values (at least
 * MIN_ENV_SECRET_CHARS characters) of variables whose names look secret, and of those named with
 * `--redact-env`. Host configs put API keys in the server's `env` block, and servers echo them in error
 * messages and debug output; masking at capture, as CI systems mask registered secrets, keeps them out of
 * every record. Pure: the caller passes the environment.
 */

/** A secret value and the variable it came from. */
export interface EnvSecret {
  name: string;
  value: string;
}

/** Shorter values are not masked: `1` or `true` would shred every record. */
export const MIN_ENV_SECRET_CHARS = 8;

/** Name parts that make a variable secret, matched anywhere in the upper-cased name. */
const SECRET_PARTS = ['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'AUTH', 'CREDENTIAL', 'PRIVATE', 'COOKIE', 'SESSION', 'DSN'];
/** Well-known variables that match a part but hold no secret (socket paths, desktop session plumbing). */
const NOT_SECRET = /(^|_)SOCK$|^XDG_SESSION_|^DBUS_SESSION_BUS_ADDRESS$|^SSH_AUTH_SOCK$/;

/** True for a variable name that looks like it holds a secret (GITHUB_TOKEN, OPENAI_API_KEY, SENTRY_DSN…). */
export function looksSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (NOT_SECRET.test(upper)) return false;
  return SECRET_PARTS.some((p) => upper.includes(p));
}

/**
 * The secrets of `env`, longest value first (a value that contains another is masked whole). `explicit`
 * names count whatever they are called; `tooShort` hears about explicit names whose value is too short.
 */
export function envSecrets(env: NodeJS.ProcessEnv, explicit: readonly string[] = [], tooShort?: (name: string) => void): EnvSecret[] {
  const out = new Map<string, string>();
  const named = new Set(explicit);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !(named.has(name) || looksSecretEnvName(name))) continue;
    if (value.length >= MIN_ENV_SECRET_CHARS) out.set(name, value);
    else if (named.has(name)) tooShort?.(name);
  }
  return [...out].map(([name, value]) => ({ name, value })).sort((a, b) => b.value.length - a.value.length || a.name.localeCompare(b.name));
}
