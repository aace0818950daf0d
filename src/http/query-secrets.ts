/**
 * Secret values a URL carries (pure): an OAuth `code` in a redirect's `Location`, an `api_key` in the
 * MCP URL, an `access_token` in an implicit grant's fragment, a signed URL's `sig`. Learned like a
 * header's secret, so a body that repeats one is masked; the URL itself is logged with every query value
 * masked (mask.ts).
 */

/** Parameter names whose values are secrets: whole words, name endings, and parts of longer names. */
const SECRET_PARAM = /^(?:code|key|sig|pass|pwd|auth|authorization|jwt)$|[_-](?:code|key|jwt)$|token|secret|passw|api-?key|apikey|signature|credential|private|session|assertion/;

/**
 * Names that look secret but say what kind or how (`token_type`, `token_type_hint`,
 * `oauth_signature_method`, `token_count`), or name keys and codes that are no secrets (`sort_key`,
 * `public_key`, `country_code`): their values are ordinary words (`updated_at`, `HMAC-SHA256`) that
 * masking would shred wherever a body repeats them.
 */
const PLAIN_PARAM = /(?:_type|_hint|_method|_mode|_count|_format)$|^(?:public|sort|partition|primary)[_-]?key$|^(?:country|zip|postal|currency|lang|language|region|status|error)[_-]code$/;

/** True for a query parameter name that looks like it holds a secret (`code`, `access_token`, `sig`…). */
export function looksSecretParam(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_PARAM.test(n) && !PLAIN_PARAM.test(n);
}

/** Parameter names in a marker are kept this short (a name is the client's choice). */
const MAX_MARKER_NAME = 64;

/** `[REDACTED:query:code]`: what a secret query value becomes where a body repeats it; names the parameter, JSON-safe. */
export function queryMarker(name: string): string {
  return `[REDACTED:query:${name.toLowerCase().slice(0, MAX_MARKER_NAME).replace(/[^a-z0-9_.-]/g, '?')}]`;
}

/** `text` percent-decoded, or null when it is not valid percent-encoding. */
function percentDecoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * A secret as a URL may spell it too: itself, percent-encoded (a token a server puts in a link) and
 * form-encoded as URLSearchParams writes it (a space as `+`; `!'()~` encoded too), each when it differs.
 * A value with a lone surrogate has no percent-encoding: itself only.
 */
export function urlSpellings(value: string): string[] {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return [value];
  }
  const form = encoded.replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return [...new Set([value, encoded, form])];
}

/**
 * The values of the secret-named parameters in a URL's query and fragment, each as sent, decoded (also
 * with `+` as a space, as forms write it) and the decoded value percent-encoded, with the marker that
 * names the parameter.
 * The masker leaves out values too short to mask safely (env-mask.ts).
 */
export function querySecrets(url: string): Array<{ value: string; marker: string }> {
  const hash = url.indexOf('#');
  const q = url.indexOf('?');
  const parts: string[] = [];
  if (q >= 0 && (hash < 0 || q < hash)) parts.push(url.slice(q + 1, hash < 0 ? undefined : hash));
  if (hash >= 0) parts.push(url.slice(hash + 1));
  const out: Array<{ value: string; marker: string }> = [];
  for (const p of parts.join('&').split('&')) {
    const eq = p.indexOf('=');
    if (eq <= 0) continue;
    const name = percentDecoded(p.slice(0, eq).replace(/\+/g, ' ')) ?? p.slice(0, eq);
    if (!looksSecretParam(name)) continue;
    const raw = p.slice(eq + 1);
    const spellings = new Set<string>([raw]);
    for (const d of [percentDecoded(raw), percentDecoded(raw.replace(/\+/g, ' '))]) if (d !== null) for (const v of urlSpellings(d)) spellings.add(v);
    const marker = queryMarker(name);
    for (const value of spellings) if (value !== '') out.push({ value, marker });
  }
  return out;
}
