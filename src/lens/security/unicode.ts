/**
 * Hidden and deceptive Unicode in text the model reads: tag characters (decoded to the ASCII they
 * spell), bidi controls, zero-width characters outside the places scripts and emoji need them, and
 * tool names that mix scripts or imitate ASCII. Pure; every finding shows what it found escaped.
 */
import { escapeControl } from '../../text/escape.js';

/** One kind of hidden character found in a text, with a short, escaped description of it. */
export interface UnicodeFinding {
  rule: 'unicode-tag-characters' | 'unicode-bidi-control' | 'unicode-zero-width';
  detail: string;
}

const TAGS = /[\u{E0000}-\u{E007F}]/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
const TRIGGER = /[\u200B-\u200D\u202A-\u202E\u2060\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/;

const BIDI_NAMES: Record<string, string> = {
  '\u202a': 'LRE', '\u202b': 'RLE', '\u202c': 'PDF', '\u202d': 'LRO', '\u202e': 'RLO',
  '\u2066': 'LRI', '\u2067': 'RLI', '\u2068': 'FSI', '\u2069': 'PDI',
};

const MAX_SHOWN = 160;

/** `s` cut to MAX_SHOWN characters, escaped for any terminal or document. */
export function shown(s: string): string {
  const cut = [...s];
  const text = cut.length > MAX_SHOWN ? `${cut.slice(0, MAX_SHOWN).join('')}…` : s;
  return JSON.stringify(escapeControl(text)).replace(/[\u200B-\u200D\u2060\uFEFF]|[\u{E0000}-\u{E007F}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** What a run of tag characters spells: U+E0020–U+E007E are ASCII 0x20–0x7E; the others are shown as escapes. */
export function decodeTags(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0xe0000 || cp > 0xe007f) continue;
    const ascii = cp - 0xe0000;
    out += ascii >= 0x20 && ascii <= 0x7e ? String.fromCharCode(ascii) : `\\u{${cp.toString(16)}}`;
  }
  return out;
}

const LETTER = /\p{L}/u;
const LATIN_OR_COMMON = /[\p{Script=Latin}\p{Script=Common}]/u;
const PICTO = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F]/u;

/** A zero-width character that a script or an emoji sequence needs: a joiner inside emoji, or one next to a letter of a non-Latin script. */
function legitimateZeroWidth(text: string, at: number): boolean {
  const ch = text[at]!;
  if (ch === '\u2060' || ch === '\uFEFF') return false;
  const before = [...text.slice(Math.max(0, at - 2), at)].at(-1) ?? '';
  const after = [...text.slice(at + 1, at + 3)][0] ?? '';
  if (ch === '\u200D' && PICTO.test(before) && PICTO.test(after)) return true;
  const scriptLetter = (c: string) => c !== '' && LETTER.test(c) && !LATIN_OR_COMMON.test(c);
  return scriptLetter(before) || scriptLetter(after);
}

/** The hidden characters in `text`, one finding per kind. */
export function findHiddenUnicode(text: string): UnicodeFinding[] {
  if (!TRIGGER.test(text)) return [];
  const out: UnicodeFinding[] = [];
  const tags = text.match(TAGS);
  if (tags) {
    out.push({ rule: 'unicode-tag-characters', detail: `${tags.length} tag character${tags.length === 1 ? '' : 's'} spelling ${shown(decodeTags(tags.join('')))}` });
  }
  const bidi = text.match(BIDI);
  if (bidi) {
    const names = [...new Set(bidi.map((c) => BIDI_NAMES[c] ?? '?'))];
    out.push({ rule: 'unicode-bidi-control', detail: `${bidi.length} bidi control${bidi.length === 1 ? '' : 's'} (${names.join(', ')}) in ${shown(text)}` });
  }
  let zw = 0;
  const kinds = new Set<string>();
  ZERO_WIDTH.lastIndex = 0;
  for (let m = ZERO_WIDTH.exec(text); m !== null; m = ZERO_WIDTH.exec(text)) {
    if (m[0] === '\uFEFF' && m.index === 0) continue; // a byte order mark at the start is not inside text
    if (legitimateZeroWidth(text, m.index)) continue;
    zw++;
    kinds.add(`U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  }
  if (zw > 0) out.push({ rule: 'unicode-zero-width', detail: `${zw} zero-width character${zw === 1 ? '' : 's'} (${[...kinds].join(', ')}) in ${shown(text)}` });
  return out;
}

const CONFUSABLE_SCRIPTS = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
const FULLWIDTH = /[\uFF01-\uFF5E]/;
/** Non-Latin letters that are drawn like ASCII letters (the common Cyrillic and Greek ones). */
const LOOKS_ASCII = new Set([...'аеорсухіјѕԁһӏԛԝвкмнтАВЕЗІЈКМНОРСТУХЅοасеορτυνικΑΒΕΖΗΙΚΜΝΟΡΤΥΧ']);

/** Why a tool name is deceptive (mixed scripts, lookalike letters, fullwidth forms), or undefined. */
export function confusableName(name: string): string | undefined {
  if (/^[\x20-\x7e]*$/.test(name)) return undefined;
  const chars = [...name];
  if (chars.some((c) => FULLWIDTH.test(c))) return `${shown(name)} uses fullwidth forms of ASCII characters`;
  const foreign = chars.filter((c) => CONFUSABLE_SCRIPTS.test(c));
  if (foreign.length === 0) return undefined;
  const list = [...new Set(foreign)].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(', ');
  if (chars.some((c) => LATIN_LETTER.test(c))) return `${shown(name)} mixes Latin letters with ${list}`;
  const letters = chars.filter((c) => LETTER.test(c));
  if (letters.length > 0 && letters.every((c) => LOOKS_ASCII.has(c))) return `${shown(name)} is spelled only with letters that look like ASCII (${list})`;
  return undefined;
}
