/**
 * A record as one line of JSON for `--json` output, safe for a terminal: JSON.stringify already writes C0
 * controls as \u escapes; DEL, C1 controls, bidi overrides/isolates and line separators — which it leaves
 * as they are — are written as \u escapes too (escapeDataText). The result is the same JSON value.
 */
import { escapeDataText } from '../text/escape.js';

/** One value → one terminal-safe JSON line (without the newline). */
export function jsonLine(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = 'null';
  }
  return escapeDataText(text);
}
