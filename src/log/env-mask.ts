/**
 * Masks secret environment values in serialized records: every occurrence, as it appears raw or
 * JSON-escaped inside a string, becomes `[REDACTED:env NAME]`. A line without any secret costs one
 * substring search per secret form and is returned as it is. Pure.
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

/** Values learned while the session runs (HTTP mode: credentials, cookies, session ids) are kept at most this many, newest first. */
const MAX_LEARNED = 64;
/** Shorter learned values are not masked: they would shred ordinary text. */
const MIN_LEARNED = 8;

export class EnvMasker {
  private forms: Form[] = [];
  private readonly secrets: Array<{ value: string; replacement: string }> = [];
  private readonly fixed: number;

  constructor(secrets: readonly EnvSecret[]) {
    for (const s of secrets) this.addForms(s.value, envMarker(s.name));
    this.fixed = this.secrets.length;
  }

  private addForms(value: string, replacement: string): void {
    this.secrets.push({ value, replacement });
    const escaped = JSON.stringify(value).slice(1, -1);
    for (const text of escaped === value ? [value] : [escaped, value]) this.forms.push({ text, bytes: Buffer.from(text, 'utf8'), replacement });
  }

  /**
   * A secret seen on the wire (an Authorization credential, a cookie, a session id), masked from now on
   * wherever it appears. Bounded: past MAX_LEARNED the oldest learned one is forgotten.
   */
  learn(value: string, replacement: string): void {
    if (value.length < MIN_LEARNED || this.secrets.some((s) => s.value === value)) return;
    if (this.secrets.length - this.fixed >= MAX_LEARNED) {
      this.secrets.splice(this.fixed, 1);
      this.forms = [];
      const all = this.secrets.splice(0);
      for (const s of all) this.addForms(s.value, s.replacement);
    }
    this.addForms(value, replacement);
  }

  /** True when the masker has anything to mask. */
  get active(): boolean {
    return this.forms.length > 0;
  }

  /** True when `text` holds a secret. */
  hitsText(text: string): boolean {
    for (const f of this.forms) if (text.includes(f.text)) return true;
    return false;
  }

  /** True when `bytes` hold a secret. */
  hitsBytes(bytes: Buffer): boolean {
    for (const f of this.forms) if (bytes.includes(f.bytes)) return true;
    return false;
  }

  /**
   * One serialized record (a JSON line ending in \n) with every secret masked. When a replacement broke
   * the JSON (a value that is a number in the record, or spans its structure), the record is rebuilt with
   * the secrets masked value by value.
   */
  maskLine(line: string): string {
    let out = line;
    for (const f of this.forms) if (out.includes(f.text)) out = out.split(f.text).join(f.replacement);
    if (out === line) return line;
    try {
      JSON.parse(out);
      return out;
    } catch {
      return `${JSON.stringify(this.maskValue(JSON.parse(line)))}\n`;
    }
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
    for (const sec of this.secrets) if (out.includes(sec.value)) out = out.split(sec.value).join(sec.replacement);
    return out;
  }
}
