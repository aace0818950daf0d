/**
 * Putting untrusted text into Markdown without letting it out: code spans and fences longer than any
 * backtick run inside, HTML-escaped summaries, table cells that cannot add columns, control and
 * bidirectional characters made visible. Everything from the wire goes through one of these.
 */

// C0 (but tab and LF), DEL, C1, and the bidi/zero-width controls that can reorder or hide text
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/g;

function hex(c: string): string {
  const n = c.codePointAt(0)!;
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/** Control and invisible formatting characters → `\xNN` / `\uNNNN` (text keeps its LF and tab). */
export function visible(text: string): string {
  return text.replace(INVISIBLE, hex);
}

/** The same characters inside JSON text → `\uNNNN` escapes, which keeps the JSON valid and equivalent. */
export function visibleJson(json: string): string {
  return json.replace(INVISIBLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    if (c === ch) best = Math.max(best, ++run);
    else run = 0;
  }
  return best;
}

/** A fenced code block whose fence is longer than any backtick run in `text`, so nothing can close it early. */
export function fence(text: string, lang = ''): string {
  const ticks = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  const body = visible(text);
  return `${ticks}${lang}\n${body}${body.endsWith('\n') ? '' : '\n'}${ticks}`;
}

/** One line of untrusted text as an inline code span (newlines shown as ⏎); `inTable` escapes `|` for GFM cells. */
export function code(text: string, inTable = false): string {
  let one = visible(text.replace(/\r?\n/g, '⏎'));
  if (inTable) one = one.replace(/\|/g, '\\|');
  if (one.length === 0) return '` `';
  const ticks = '`'.repeat(longestRun(one, '`') + 1);
  const pad = one.startsWith('`') || one.endsWith('`') || (one.startsWith(' ') && one.endsWith(' ')) ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

/** Text for HTML content (`<summary>`): `& < > " '` escaped, control characters visible, one line. */
export function html(text: string): string {
  return visible(text.replace(/\r?\n/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Plain untrusted prose (finding texts) mid-line in Markdown: the characters that could start inline
 * markup, a link or an issue reference are backslash-escaped, `<`/`>`/`&` become entities, `@` cannot
 * mention anyone, and it stays one line (so it cannot start a block).
 */
export function prose(text: string): string {
  return visible(text.replace(/\r?\n/g, ' '))
    .replace(/[\\`*_[\]#|~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '@\u200b');
}
