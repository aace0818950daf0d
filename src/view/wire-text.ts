/**
 * The one door through which text from the wire or the server reaches a terminal view: escaped (no control
 * character survives) and shortened. Everything the renderers show that they did not write themselves goes
 * through `wireText`.
 */
import { escapeControl } from '../text/escape.js';
import { shorten } from './format.js';

/** Untrusted value → displayable text: strings as they are, other values as compact JSON; escaped, at most `max` characters. */
export function wireText(value: unknown, max = Number.POSITIVE_INFINITY): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else if (value === undefined) s = '';
  else {
    try {
      s = JSON.stringify(value) ?? String(value);
    } catch {
      s = String(value);
    }
  }
  if (Number.isFinite(max)) {
    // escaping only lengthens text, so cutting first bounds the work on huge strings
    return shorten(escapeControl(shorten(s, max)), max);
  }
  return escapeControl(s);
}

/** A JSON-RPC id as on the wire: numbers bare, strings quoted (so `1` and `"1"` stay distinct), escaped. */
export function wireId(id: unknown, max = Number.POSITIVE_INFINITY): string {
  if (id === undefined) return '';
  if (typeof id === 'number' || id === null || typeof id === 'boolean') return wireText(String(id), max);
  return wireText(JSON.stringify(id) ?? String(id), max);
}
