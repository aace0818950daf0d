/**
 * Terminal safety for text that came from the wire, a server or a log file: no byte of it may move the
 * cursor, retitle the terminal, clear lines or reorder what is shown.
 */

// C0 controls (tab, newline and CR included), DEL, C1 controls, bidi embeddings/overrides (U+202A–U+202E),
// bidi isolates (U+2066–U+2069), and the Unicode line/paragraph separators (U+2028, U+2029).
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `s` with every control, bidi-override and line-separator character shown as a visible escape (`\x1b`, `\n`, `\u202e`). */
export function escapeControl(s: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(s)) return s;
  UNSAFE.lastIndex = 0;
  return s.replace(UNSAFE, visible);
}

// what JSON.stringify leaves raw that a terminal (or a later `cat` of the file) would obey: DEL, C1,
// line separators, bidi; plus C0 other than tab and newline for markup that holds wire text
const UNSAFE_IN_DATA = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON (or markup that embeds wire text: HTML, XML) with every unsafe character written as a `\uXXXX`
 * escape: for JSON the same value, for markup visible text. Newlines and tabs, which structure the
 * output, stay.
 */
export function escapeDataText(text: string): string {
  UNSAFE_IN_DATA.lastIndex = 0;
  if (!UNSAFE_IN_DATA.test(text)) return text;
  UNSAFE_IN_DATA.lastIndex = 0;
  return text.replace(UNSAFE_IN_DATA, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
