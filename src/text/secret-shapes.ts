/**
 * Token shapes that are secret wherever they appear (AWS, GitHub, Slack, Stripe, JWT, private key
 * blocks, `Authorization` values…). One list for the redactor (src/transcript/redact-text.ts) and the
 * security lens (src/lens/security/credentials.ts), so what export hides and what check reports as a
 * credential on the wire never drift apart. Pure.
 */

/** A span of text holding a secret, and its kind (`aws-access-key`, `key:authorization`…). */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/** One shape: a cheap trigger, a global regex with indices, and which part of a match is the secret. */
export interface SecretShape {
  trigger: RegExp;
  re: RegExp;
  pick: (m: RegExpExecArray) => SecretSpan | null;
}

function whole(kind: string): SecretShape['pick'] {
  return (m) => ({ start: m.index, end: m.index + m[0].length, kind });
}

function group(n: number, kind: string): SecretShape['pick'] {
  return (m) => {
    const at = m.indices?.[n];
    return at ? { start: at[0], end: at[1], kind } : null;
  };
}

/** Token shapes, in the order the redactor tries them. */
export const TOKEN_SHAPES: readonly SecretShape[] = [
  // PEM private key blocks; a block cut short (truncated copy, one stderr line) runs to the end of the text
  {
    trigger: /-----BEGIN/,
    re: /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/dg,
    pick: whole('private-key'),
  },
  // JWT: three base64url segments, the first a JSON header (`{"` → eyJ)
  { trigger: /eyJ/, re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/dg, pick: whole('jwt') },
  { trigger: /sk-ant-/, re: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{12,}/dg, pick: whole('anthropic-key') },
  { trigger: /sk-/, re: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{16,}/dg, pick: whole('openai-key') },
  { trigger: /k_(?:live|test)_/, re: /(?<![A-Za-z0-9_-])[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/dg, pick: whole('stripe-key') },
  { trigger: /gh[pousr]_|github_pat_/, re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/dg, pick: whole('github-token') },
  { trigger: /xox/, re: /(?<![A-Za-z0-9_-])xox[abprse]-[A-Za-z0-9-]{10,}/dg, pick: whole('slack-token') },
  { trigger: /AKIA|ASIA/, re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/dg, pick: whole('aws-access-key') },
  { trigger: /AIza/, re: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/dg, pick: whole('google-api-key') },
  // scheme://user:password@host — the user part goes too (it is often a token itself)
  {
    trigger: /:\/\//,
    re: /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:"'<>`]+:[^\s/?#@"'<>`]*)@/dg,
    pick: group(1, 'url-credentials'),
  },
  // Bearer <token> (any case): the token only; "Bearer token" in prose is left alone (a token has a digit or is long)
  {
    trigger: /bearer/i,
    re: /(?<![A-Za-z0-9])[Bb][Ee][Aa][Rr][Ee][Rr]\s+([A-Za-z0-9\-._~+/]+=*)/dg,
    pick: (m) => {
      const at = m.indices?.[1];
      if (!at) return null;
      let end = at[1];
      while (end > at[0] && m.input[end - 1] === '.') end--;
      const token = m.input.slice(at[0], end);
      if (token.length < 8 || (!/\d/.test(token) && token.length < 20)) return null;
      return { start: at[0], end, kind: 'bearer-token' };
    },
  },
];

/** Header lines whose value is a credential: `Authorization: Basic …`, `Cookie: …`. */
export const HEADER_SHAPE: SecretShape = {
  trigger: /:/,
  re: /(?<![A-Za-z0-9-])(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)[ \t]*:[ \t]*([^\r\n"]+)/dgi,
  pick: (m) => {
    const at = m.indices?.[2];
    const name = m[1];
    if (!at || name === undefined) return null;
    let end = at[1];
    while (end > at[0] && /[\s,;]/.test(m.input[end - 1]!)) end--;
    if (end <= at[0]) return null;
    return { start: at[0], end, kind: `key:${name.toLowerCase()}` };
  },
};

/** Every span of `shape` in `text`, appended to `into`. */
export function collectShape(text: string, shape: SecretShape, into: SecretSpan[]): void {
  const re = shape.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const span = shape.pick(m);
    if (span && span.end > span.start) into.push(span);
  }
}

/**
 * Two scans that every text holding a known shape matches (a superset of the shapes' own triggers, the
 * header shape by its header names rather than any `:`): most texts fail both. The token prefixes are
 * case-sensitive, as their shapes are; one case-insensitive scan of them all cost a third more.
 */
const ANY_TOKEN = /-----BEGIN|eyJ|sk-|k_(?:live|test)_|gh[pousr]_|github_pat_|xox|AKIA|ASIA|AIza|:\/\//;
const ANY_WORD = /bearer|authorization|cookie|api-key|x-auth-token/i;
const ALL_SHAPES: readonly SecretShape[] = [...TOKEN_SHAPES, HEADER_SHAPE];

/** The secrets of the known shapes (tokens and credential headers) in `text`, in order, overlaps resolved. */
export function findSecretShapes(text: string): SecretSpan[] {
  if (!ANY_TOKEN.test(text) && !ANY_WORD.test(text)) return [];
  const spans: SecretSpan[] = [];
  for (const shape of ALL_SHAPES) if (shape.trigger.test(text)) collectShape(text, shape, spans);
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  let pos = 0;
  for (const s of spans) {
    if (s.start < pos) continue;
    out.push(s);
    pos = s.end;
  }
  return out;
}
