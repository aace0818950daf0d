/**
 * Credentials crossing the wire: the token shapes the redactor knows (src/text/secret-shapes.ts) in
 * the strings of a message part, and credential header values under their header's name. Findings name
 * the kind of secret and where it is, never the secret. Pure and bounded.
 */
import { findSecretShapes } from '../../text/secret-shapes.js';

/** A credential found: its kind (`github-token`, `key:authorization`) and its JSON path in the part. */
export interface CredentialHit {
  kind: string;
  where: string;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const HEADER_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token']);
const MAX_DEPTH = 40;
const MAX_STRINGS = 20_000;
const MAX_HITS = 20;
const SAFE_KEY = /^[A-Za-z_$][\w$-]*$/;

/** Every credential in the strings of `value` (whose path is `path`), at most MAX_HITS. */
export function findCredentials(value: unknown, path: string): CredentialHit[] {
  const hits: CredentialHit[] = [];
  let strings = 0;
  const seen = new Set<string>();
  const add = (kind: string, where: string) => {
    const key = `${kind}\0${where}`;
    if (seen.has(key) || hits.length >= MAX_HITS) return;
    seen.add(key);
    hits.push({ kind, where });
  };
  const walk = (v: unknown, at: string, depth: number): void => {
    if (hits.length >= MAX_HITS || strings > MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof v === 'string') {
      strings++;
      if (v.length < 8) return;
      // a redaction marker in a credential's place (`Authorization: [REDACTED:…]`, a redacted copy) holds none
      for (const s of findSecretShapes(v)) if (!v.startsWith('[REDACTED:', s.start)) add(s.kind, at);
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${at}[${i}]`, depth + 1));
      return;
    }
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const next = SAFE_KEY.test(k) ? (at === '' ? k : `${at}.${k}`) : `${at}[${JSON.stringify(k)}]`;
      if (typeof x === 'string' && HEADER_KEYS.has(k.toLowerCase()) && x.trim().length >= 8 && !x.startsWith('[REDACTED:')) add(`key:${k.toLowerCase()}`, next);
      walk(x, next, depth + 1);
    }
  };
  walk(value, path, 0);
  return hits;
}

/** `a github-token at content[0].text, a jwt at structuredContent.token`: hits as words, no value. */
export function describeHits(hits: readonly CredentialHit[]): string {
  const byKind = new Map<string, string[]>();
  for (const h of hits) {
    const list = byKind.get(h.kind) ?? [];
    list.push(h.where === '' ? '(the value itself)' : h.where);
    byKind.set(h.kind, list);
  }
  const article = (k: string) => (/^[aeiou]/i.test(k) ? 'an' : 'a');
  return [...byKind].map(([kind, at]) => `${article(kind)} ${kind} at ${at.slice(0, 3).join(', ')}${at.length > 3 ? ` (+${at.length - 3} more)` : ''}`).join('; ');
}
