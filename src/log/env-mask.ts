/**
 * Masks secret environment values in serialized records: every occurrence, in any JSON spelling inside
 * a string (raw, the usual escapes, `\u0026`-style escapes as Go writes `&<>`, `\/`, any mix, also in
 * JSON text inside a string, whose escapes are escaped again), becomes
 * `[REDACTED:env NAME]`. The raw and the usual escaped spellings are replaced in place; a line that
 * still holds a secret once its escapes are decoded is rebuilt value by value. A line without a secret
 * costs one substring search per form, plus a decoding pass per level of escaping when it holds a `\u`,
 * `\/` or `\\` escape.
 * A record the log keeps shortened (`"truncated":true`) can end a cut string with the first characters
 * of a secret; those are masked too (at least CUT_PREFIX of them). Pure.
 */
import type { EnvSecret } from './env-secrets.js';

interface Form {
  text: string;
  bytes: Buffer;
  replacement: string;
}

/** The marker that stands for a masked value (the name kept JSON-safe). */
export function envMarker(name: string): string {
  return `[REDACTED:env ${name.replace(/[^A-Za-z0-9_.-]/g, '?')}]`;
}

const BACKSLASH = 0x5c;
const U_ESCAPE = '\\u';
const SLASH_ESCAPE = '\\/';
/** A shortened record: the only kind whose strings can end inside a secret. */
const SHORTENED = '"truncated":true';
/** Where the shortener cut a string: the kept head ends just before this marker. */
const CUT_MARKER = /…\[truncated: \d+ bytes\]$/;
/** The fewest leading characters of a secret, left at a cut, that are masked as the secret. */
export const CUT_PREFIX = 3;

/** An escaped backslash: the sign of JSON text inside a JSON string, whose own escapes are escaped again. */
const ESCAPED_BACKSLASH = '\\\\';
/** Levels of JSON text inside JSON strings whose escapes are decoded to look for a secret. */
const MAX_ESCAPE_DEPTH = 4;

/**
 * Every spelling of `value` inside JSON text at any depth of escaping: each character as itself, as a
 * `\uXXXX` escape (hex in either case) or its short escape, behind as many backslashes as the depth gives.
 */
function spelledForms(value: string): RegExp {
  let source = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    const hex = value.charCodeAt(i).toString(16).padStart(4, '0');
    // the escaped spellings first, so that an escape is taken whole, not its last character alone
    let alt = `\\\\+u${[...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('')}`;
    const short = SHORT_ESCAPE_OF[ch];
    if (short !== undefined) alt += `|\\\\+${short.replace(/[\\/]/g, '\\$&')}`;
    source += `(?:${alt}|${ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')})`;
  }
  return new RegExp(source, 'g');
}

/** A `\u`, `\/` or `\\` escape (one regex pass over a latin1 view costs less than three byte searches). */
const RARE_ESCAPE = /\\[u/\\]/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** The short escape letter of a character (SIMPLE_ESCAPES the other way round). */
const SHORT_ESCAPE_OF: Record<string, string> = Object.fromEntries(Object.entries(SIMPLE_ESCAPES).map(([letter, ch]) => [ch, letter]));

/**
 * True when some occurrence of `needle` in `text` has a backslash right before or after it: then it may
 * begin or end inside an escape of a deeper level of JSON text (a value that starts with `"` or ends
 * with `\\` is spelled with a backslash more there).
 */
function besideBackslash(text: string, needle: string): boolean {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (text.charCodeAt(at - 1) === BACKSLASH || text.charCodeAt(at + needle.length) === BACKSLASH) return true;
  }
  return false;
}

/** The value of a hex digit's char code, or -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * `text` with every JSON string escape decoded, the structure around the strings left as it is (escapes
 * occur only inside strings). A malformed escape stays as written. Char codes, not regexes or slices per
 * escape: a line of non-ASCII text that a server writes all as \u escapes stays cheap.
 */
export function decodeEscapes(text: string): string {
  let at = text.indexOf('\\');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    out += text.slice(from, at);
    from = at + 1;
    if (text.charCodeAt(at + 1) === 0x75) {
      const code = (hexValue(text.charCodeAt(at + 2)) << 12) | (hexValue(text.charCodeAt(at + 3)) << 8) | (hexValue(text.charCodeAt(at + 4)) << 4) | hexValue(text.charCodeAt(at + 5));
      // a digit that is not hex is -1: the whole code is negative
      if (code >= 0) {
        out += String.fromCharCode(code);
        from = at + 6;
      } else out += '\\';
    } else {
      const simple = SIMPLE_ESCAPES[text.charAt(at + 1)];
      if (simple !== undefined) {
        out += simple;
        from = at + 2;
      } else out += '\\';
    }
    at = text.indexOf('\\', from);
  }
  return out + text.slice(from);
}

/** Values learned while the session runs (HTTP mode: credentials, cookies, session ids, secret-named headers) are kept at most this many, the most recently seen. */
const MAX_LEARNED = 64;
/** Shorter learned values are not masked: they would shred ordinary text. */
const MIN_LEARNED = 8;

/** A value to mask and its marker; `seen` (learned ones only) counts when it was last seen on the wire. */
interface Secret {
  value: string;
  replacement: string;
  spelled?: RegExp;
  seen?: number;
}

/** Masks the values of a set of secrets (fixed at start, plus those learned on the wire) in serialized records. */
export class EnvMasker {
  private forms: Form[] = [];
  private readonly secrets: Secret[] = [];
  private learned = 0;
  private sightings = 0;

  constructor(secrets: readonly EnvSecret[]) {
    for (const s of secrets) this.addForms({ value: s.value, replacement: envMarker(s.name) });
  }

  private addForms(secret: Secret): void {
    this.secrets.push(secret);
    const { value, replacement } = secret;
    const escaped = JSON.stringify(value).slice(1, -1);
    for (const text of escaped === value ? [value] : [escaped, value]) this.forms.push({ text, bytes: Buffer.from(text, 'utf8'), replacement });
  }

  /**
   * A secret seen on the wire (an Authorization credential, a cookie, a session id, a secret-named
   * header's value), masked from now on wherever it appears. Bounded: past MAX_LEARNED the learned one
   * seen least recently is forgotten; seeing a value again keeps it. Longest first, as the fixed ones
   * are: a value that holds another is masked whole.
   */
  learn(value: string, replacement: string): void {
    if (value.length < MIN_LEARNED) return;
    const known = this.secrets.find((s) => s.value === value);
    if (known !== undefined) {
      if (known.seen !== undefined) known.seen = ++this.sightings;
      return;
    }
    const all = this.secrets.splice(0);
    if (this.learned >= MAX_LEARNED) {
      let stale = -1;
      all.forEach((s, i) => {
        if (s.seen !== undefined && (stale < 0 || s.seen < all[stale]!.seen!)) stale = i;
      });
      all.splice(stale, 1);
      this.learned--;
    }
    all.push({ value, replacement, seen: ++this.sightings });
    this.learned++;
    all.sort((a, b) => b.value.length - a.value.length);
    this.forms = [];
    for (const s of all) this.addForms(s);
  }

  /** True when the masker has anything to mask. */
  get active(): boolean {
    return this.forms.length > 0;
  }

  /** True when `text` holds a secret, in any spelling (or a shortened record the first characters of one). */
  hitsText(text: string): boolean {
    for (const f of this.forms) if (text.includes(f.text)) return true;
    if (this.hitsDecoded(text)) return true;
    const shortened = text.includes(SHORTENED) ? this.maskCuts(text) : undefined;
    return shortened !== undefined && shortened !== text;
  }

  /** True when `bytes` hold a secret, in any spelling. */
  hitsBytes(bytes: Buffer): boolean {
    for (const f of this.forms) if (bytes.includes(f.bytes)) return true;
    const at = bytes.indexOf(BACKSLASH);
    return at >= 0 && RARE_ESCAPE.test(bytes.toString('latin1', at)) && this.hitsDecoded(bytes.toString('utf8'));
  }

  /**
   * True when `text` with its JSON escapes decoded holds a secret. Without a `\u` or `\/` escape every
   * character has one spelling, the one the forms search for, so only text with one needs decoding.
   */
  private hitsDecoded(text: string): boolean {
    let t = text;
    // a JSON document inside a string (a structured log line, a tool result that is JSON text) escapes its
    // own escapes again: `\\u0026`, `\\\"`; each level decoded in turn, as deep as MAX_ESCAPE_DEPTH
    for (let depth = 0; depth < MAX_ESCAPE_DEPTH; depth++) {
      const at = t.indexOf('\\');
      if (at < 0 || (!t.includes(U_ESCAPE, at) && !t.includes(SLASH_ESCAPE, at) && !t.includes(ESCAPED_BACKSLASH, at))) return false;
      t = decodeEscapes(t);
      for (const s of this.secrets) if (t.includes(s.value)) return true;
    }
    return false;
  }

  /**
   * One serialized record (a JSON line ending in \n) with every secret masked. When a replacement broke
   * the JSON (a value that is a number in the record, or spans its structure), the record is rebuilt with
   * the secrets masked value by value.
   */
  maskLine(line: string): string {
    const shortened = line.includes(SHORTENED) ? this.maskCuts(line) : undefined;
    if (shortened !== undefined) return shortened;
    let out = line;
    for (const f of this.forms) {
      if (!out.includes(f.text)) continue;
      // beside a backslash the match may begin or end inside an escape of JSON text in a string: only the
      // parsed record tells how deep it is
      if (besideBackslash(out, f.text)) return this.rebuild(line);
      out = out.split(f.text).join(f.replacement);
    }
    // another spelling (\u0026 for &, \/ for /, …) is left: parsing decodes them all
    if (this.hitsDecoded(out)) return this.rebuild(line);
    if (out === line) return line;
    try {
      JSON.parse(out);
      return out;
    } catch {
      return this.rebuild(line);
    }
  }

  /**
   * A shortened record with every secret masked, also the first characters of one that a cut string
   * ends with (a string followed by the shortener's `…[truncated: N bytes]`, or the kept head of a
   * `raw` line). Parsed, since such a record is rare and already bounded by the log limit; the line comes
   * back unchanged when nothing needed masking; undefined when it is not a shortened record after all.
   */
  private maskCuts(line: string): string | undefined {
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec) || (rec as { truncated?: unknown }).truncated !== true) return undefined;
    let changed = false;
    const cut = (head: string): string => {
      const masked = this.maskCutHead(head);
      if (masked !== head) changed = true;
      return masked;
    };
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const m = CUT_MARKER.exec(v);
        const out = m ? cut(v.slice(0, m.index)) + m[0] : v;
        const whole = this.maskString(out);
        if (whole !== v) changed = true;
        return whole;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (typeof v === 'object' && v !== null) {
        const o: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          const key = this.maskString(k);
          if (key !== k) changed = true;
          o[key] = walk(x);
        }
        return o;
      }
      return this.maskValue(v);
    };
    const top = rec as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(top)) {
      // a raw line kept shortened is its head: the cut is at its end
      out[k] = k === 'raw' && typeof x === 'string' ? this.maskString(cut(x)) : walk(x);
      if (k === 'raw' && out[k] !== x) changed = true;
    }
    return changed ? `${JSON.stringify(out)}\n` : line;
  }

  /** `head` with a trailing start of a secret (CUT_PREFIX characters or more) replaced by its marker. */
  private maskCutHead(head: string): string {
    let best: { value: string; replacement: string } | undefined;
    let bestLen = 0;
    for (const s of this.secrets) {
      for (let n = Math.min(s.value.length, head.length); n >= CUT_PREFIX && n > bestLen; n--) {
        if (head.endsWith(s.value.slice(0, n))) {
          best = s;
          bestLen = n;
          break;
        }
      }
    }
    return best ? head.slice(0, head.length - bestLen) + best.replacement : head;
  }

  private rebuild(line: string): string {
    return `${JSON.stringify(this.maskValue(JSON.parse(line)))}\n`;
  }

  /** A parsed value with every secret masked in its strings, keys and numbers. */
  private maskValue(v: unknown): unknown {
    if (typeof v === 'string') return this.maskString(v);
    if (typeof v === 'number') {
      const s = String(v);
      const m = this.maskString(s);
      return m === s ? v : m;
    }
    if (Array.isArray(v)) return v.map((x) => this.maskValue(x));
    if (typeof v === 'object' && v !== null) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) o[this.maskString(k)] = this.maskValue(x);
      return o;
    }
    return v;
  }

  private maskString(s: string): string {
    let out = s;
    const escapes = out.includes('\\');
    for (const sec of this.secrets) {
      if (!out.includes(sec.value)) continue;
      // in JSON text inside the string, a backslash beside the value may belong to an escape of its first or
      // last character one level down: the spelled forms take such an escape with the value, so the text
      // stays JSON
      if (escapes && besideBackslash(out, sec.value)) out = out.replace((sec.spelled ??= spelledForms(sec.value)), sec.replacement);
      else out = out.split(sec.value).join(sec.replacement);
    }
    // escapes left in a parsed string: JSON text inside it, the secret spelled with them
    if (out.includes('\\') && this.hitsDecoded(out)) for (const sec of this.secrets) out = out.replace((sec.spelled ??= spelledForms(sec.value)), sec.replacement);
    return out;
  }
}
