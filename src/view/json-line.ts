/**
 * A record as one line of JSON for `--json` output, safe for a terminal: JSON.stringify already writes C0
 * controls as \u escapes; DEL, C1 controls, bidi overrides/isolates and line separators — which it leaves
 * as they are — are written as \u escapes too. The result is the same JSON value.
 */
const UNSAFE_IN_JSON = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One value → one terminal-safe JSON line (without the newline). */
export function jsonLine(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = 'null';
  }
  return text.replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
