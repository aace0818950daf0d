/**
 * The `auth` event's chain in words, for every reader (tail, the report, the UI): `401 → resource
 * metadata → auth server metadata → register → token → retry OK`. Pure and free of Node types, so the
 * browser pages use it too.
 */

/** One step of an OAuth sign-in as HTTP mode saw it pass (docs/log-format.md, the `auth` event). */
export interface AuthLink {
  step: 'challenge' | 'resource-metadata' | 'as-metadata' | 'register' | 'authorize' | 'token' | 'retry';
  status: number;
  path: string;
  /** ms since the first step of the chain */
  ms: number;
  /** token: the grant type (`authorization_code`, `refresh_token`, …) */
  grant?: string;
  /** challenge: the `error` parameter (`invalid_token`, `insufficient_scope`) */
  error?: string;
}

const WORDS: Record<AuthLink['step'], string> = {
  challenge: '',
  'resource-metadata': 'resource metadata',
  'as-metadata': 'auth server metadata',
  register: 'register',
  authorize: 'authorize',
  token: 'token',
  retry: 'retry',
};

function linkText(l: AuthLink): string {
  const status = typeof l.status === 'number' ? l.status : 0;
  if (l.step === 'challenge') return `${status}${typeof l.error === 'string' ? ` ${l.error}` : ''}`;
  if (l.step === 'retry') return status >= 200 && status < 300 ? 'retry OK' : `retry ${status}`;
  const word = WORDS[l.step] ?? String(l.step);
  const grant = l.step === 'token' && l.grant === 'refresh_token' ? ' (refresh)' : '';
  return status >= 200 && status < 400 ? word + grant : `${word}${grant} ${status}`;
}

/** `401 → resource metadata → token → retry OK`; `…and N more` when the log kept only the first steps. */
export function authChainText(chain: readonly AuthLink[], omitted = 0): string {
  const parts = Array.isArray(chain) ? chain.map(linkText) : [];
  if (omitted > 0) parts.push(`… ${omitted} more`);
  return parts.join(' → ');
}
