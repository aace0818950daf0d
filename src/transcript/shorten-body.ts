/**
 * Message bodies for reading: pretty JSON, and when that is longer than a limit, long strings and arrays
 * cut (with what was left out said in place), then the text cut at a line. Pure.
 */

export interface ShortBody {
  text: string;
  /** Characters of the full pretty text. */
  fullChars: number;
  shortened: boolean;
}

const STRING_KEEP = 160;
const ARRAY_KEEP = 12;
const OBJECT_KEEP = 40;

function trimValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return v.length > STRING_KEEP + 40 ? `${v.slice(0, STRING_KEEP)}…[+${v.length - STRING_KEEP} chars]` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth > 40) return '…';
  if (Array.isArray(v)) {
    const out = v.slice(0, ARRAY_KEEP).map((x) => trimValue(x, depth + 1));
    if (v.length > ARRAY_KEEP) out.push(`…[+${v.length - ARRAY_KEEP} more items]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v);
  for (const k of keys.slice(0, OBJECT_KEEP)) out[k] = trimValue((v as Record<string, unknown>)[k], depth + 1);
  if (keys.length > OBJECT_KEEP) out['…'] = `[+${keys.length - OBJECT_KEEP} more keys]`;
  return out;
}

function stringify(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Cuts text at the last line break before `max` characters and says how much was left out. */
export function cutText(text: string, max: number): ShortBody {
  if (text.length <= max) return { text, fullChars: text.length, shortened: false };
  let at = text.lastIndexOf('\n', max);
  if (at < max / 2) at = max;
  // never split a surrogate pair
  if (at > 0 && at < text.length && /[\ud800-\udbff]/.test(text[at - 1]!)) at--;
  return { text: `${text.slice(0, at)}\n… [shortened: ${text.length - at} more characters]`, fullChars: text.length, shortened: true };
}

/** A JSON value as pretty text of at most about `max` characters. */
export function shortenJson(value: unknown, max: number): ShortBody {
  const full = stringify(value);
  if (full.length <= max) return { text: full, fullChars: full.length, shortened: false };
  const trimmed = cutText(stringify(trimValue(value, 0)), max);
  return { text: trimmed.text, fullChars: full.length, shortened: true };
}
