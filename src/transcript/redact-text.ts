/**
 * Redaction of free text: known token shapes, `name=value` and header-style secrets, user patterns and
 * known secret values. Pure; every match becomes `[REDACTED:<why>]`. Rules are matched on the original
 * text and overlapping matches resolved (earliest, then longest wins), so a marker is never re-matched.
 */
import { HEADER_SHAPE, TOKEN_SHAPES, type SecretShape } from '../text/secret-shapes.js';

/** A span of text to replace, and why. */
interface Span {
  start: number;
  end: number;
  why: string;
}

/** One text rule: a global regex (with indices) and what part of a match to replace. */
interface TextRule {
  re: RegExp;
  pick: (m: RegExpExecArray, isKey: (name: string) => boolean) => Span | null;
}

/** The marker that replaces a secret; `why` is reduced to a safe alphabet so wire text cannot shape it. */
export function marker(why: string): string {
  const safe = why.replace(/[^A-Za-z0-9_.:@/-]+/g, '_').slice(0, 60);
  return `[REDACTED:${safe}]`;
}

const MARKER_RE = /^\[REDACTED:[^\]\n]*\]$/;

/** True for a string that is already a redaction marker (keeps redaction idempotent). */
export function isMarker(s: string): boolean {
  return MARKER_RE.test(s);
}

/** The shared token shapes (src/text/secret-shapes.ts) as text rules; their kind is the marker's why. */
const asRule = (shape: SecretShape): TextRule => ({
  re: shape.re,
  pick: (m) => {
    const s = shape.pick(m);
    return s ? { start: s.start, end: s.end, why: s.kind } : null;
  },
});

const SHAPES: TextRule[] = TOKEN_SHAPES.map(asRule);
const HEADER: TextRule = asRule(HEADER_SHAPE);

/** `name=value` (env, flags, query strings): the value, when the name names a secret. */
const ASSIGNMENT: TextRule = {
  re: /(?<![A-Za-z0-9_.])([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s&,;"'<>()[\]{}]+)/dg,
  pick: (m, isKey) => quotedValue(m, isKey),
};

/** `"name": "value"` in JSON-like text that did not parse (a truncated copy, a log line), also with \" quotes. */
const QUOTED_KEY: TextRule = {
  re: /(\\?["'])([A-Za-z_][A-Za-z0-9_.-]*)\1[ \t]*:[ \t]*(\\"(?:[^"\\]|\\[^"])*(?:\\"|$)|"(?:[^"\\\n]|\\.)*(?:"|$)|'[^'\n]*(?:'|$)|[^\s,}\]"'\\{[]+)/dg,
  pick: (m, isKey) => {
    const name = m[2];
    const at = m.indices?.[3];
    const value = m[3];
    if (name === undefined || !at || value === undefined || !isKey(name)) return null;
    const q = value.startsWith('\\"') ? 2 : value.startsWith('"') || value.startsWith("'") ? 1 : 0;
    // a value cut off before its closing quote (a shortened copy) runs to the end of the text
    const closed = q > 0 && value.length >= 2 * q && value.endsWith(value.slice(0, q)) && !(q === 1 && value.endsWith('\\"'));
    const start = at[0] + q;
    const end = closed ? at[1] - q : at[1];
    if (end <= start) return null;
    if (q === 0 && /^(?:true|false|null|-?\d{1,3})$/.test(value)) return null;
    return { start, end, why: `key:${name.toLowerCase()}` };
  },
};

function quotedValue(m: RegExpExecArray, isKey: (name: string) => boolean): Span | null {
  const name = m[1];
  const at = m.indices?.[2];
  const value = m[2];
  if (name === undefined || !at || value === undefined || !isKey(name)) return null;
  const q = value.startsWith('"') || value.startsWith("'") ? 1 : 0;
  if (value.length - 2 * q <= 0) return null;
  return { start: at[0] + q, end: at[1] - q, why: `key:${name.toLowerCase()}` };
}

/** Compiled text redaction: built-in rules plus the user's patterns and known secret values. */
export interface TextRedactor {
  isKey: (name: string) => boolean;
  patterns: readonly RegExp[];
  values: readonly { name: string; value: string }[];
}

function collect(text: string, rule: TextRule, isKey: (name: string) => boolean, into: Span[]): void {
  const re = rule.re;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const span = rule.pick(m, isKey);
    if (span && span.end > span.start) into.push(span);
  }
}

// Cheap pre-checks: a rule whose trigger is absent cannot match, so most strings skip most regexes.
const TRIGGERS: Array<[RegExp, TextRule]> = [
  ...TOKEN_SHAPES.map((shape, i): [RegExp, TextRule] => [shape.trigger, SHAPES[i]!]),
  [HEADER_SHAPE.trigger, HEADER],
  [/=/, ASSIGNMENT],
  [/:/, QUOTED_KEY],
];

/** Replaces every secret found in `text`; returns the same string when nothing matched. */
export function redactText(text: string, r: TextRedactor): string {
  if (text.length < 4 || isMarker(text)) return text;
  const spans: Span[] = [];
  for (const [trigger, rule] of TRIGGERS) if (trigger.test(text)) collect(text, rule, r.isKey, spans);
  for (const re of r.patterns) collect(text, { re, pick: (m) => ({ start: m.index, end: m.index + m[0].length, why: 'pattern' }) }, r.isKey, spans);
  for (const { name, value } of r.values) {
    if (value.length === 0) continue;
    for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
      spans.push({ start: i, end: i + value.length, why: `env:${name}` });
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let pos = 0;
  for (const s of spans) {
    if (s.start < pos) continue;
    const inner = text.slice(s.start, s.end);
    out += text.slice(pos, s.start) + (isMarker(inner) ? inner : marker(s.why));
    pos = s.end;
  }
  return out + text.slice(pos);
}

const PEM_OPEN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?![\s\S]*-----END [A-Z0-9 ]*PRIVATE KEY)/;
const PEM_CLOSE = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;

/** True when `text` opens a PEM private key block that it does not close (the block continues on later lines). */
export function opensPemBlock(text: string): boolean {
  return PEM_OPEN.test(text);
}

/** For a line inside an open PEM block: null while the block goes on, else the text after its END line. */
export function afterPemClose(text: string): string | null {
  const m = PEM_CLOSE.exec(text);
  return m ? text.slice(m.index + m[0].length) : null;
}
