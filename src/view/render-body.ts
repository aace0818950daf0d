/**
 * The body under a line in `tail --full`: the message as indented JSON, the raw text of non-JSON and
 * stderr lines, the fields of events, the elements of batches. Long strings are shortened and big
 * arrays/objects cut, so one huge message cannot flood the terminal; every line is escaped.
 */
import type { BatchItem, LogRecord } from '../log/record.js';
import { asObject } from './format.js';
import { batchItemText, extraFields } from './record-parts.js';
import { wireText } from './wire-text.js';

export interface BodyOptions {
  /** Prefix of every body line. */
  indent: string;
  /** Strings longer than this are cut (default 200). */
  maxString?: number;
  /** Array elements / object keys shown per level (default 50). */
  maxItems?: number;
  /** Nesting shown (default 12). */
  maxDepth?: number;
  /** Raw text shown (default 4000 characters). */
  maxRaw?: number;
}

/** The body text for a record, or '' when it has none. */
export function renderBody(r: LogRecord, opts: BodyOptions): string {
  const lines: string[] = [];
  const maxRaw = opts.maxRaw ?? 4000;
  if (r.kind === 'batch' && Array.isArray(r.items)) {
    for (const it of r.items as unknown[]) {
      const o = asObject(it) as BatchItem | undefined;
      if (o) lines.push(`· ${batchItemText(o)}`);
    }
  }
  if (r.kind === 'event') {
    const extra = extraFields(r);
    if (Object.keys(extra).length) lines.push(...prettyJson(extra, opts).split('\n'));
  } else if (r.msg !== undefined) {
    lines.push(...prettyJson(r.msg, opts).split('\n'));
  } else if (typeof r.raw === 'string') {
    lines.push(wireText(r.raw, maxRaw));
  }
  if (lines.length === 0) return '';
  return lines.map((l) => opts.indent + l).join('\n');
}

/** Indented JSON of an untrusted value, shortened; escaped line by line. */
export function prettyJson(value: unknown, opts: Omit<BodyOptions, 'indent'> = {}): string {
  const limits = { maxString: opts.maxString ?? 200, maxItems: opts.maxItems ?? 50, maxDepth: opts.maxDepth ?? 12 };
  let text: string;
  try {
    text = JSON.stringify(shrink(value, limits, 0), null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  // JSON.stringify escapes C0 controls inside strings; wireText also catches DEL, C1 and the like.
  return text
    .split('\n')
    .map((l) => wireText(l))
    .join('\n');
}

interface Limits {
  maxString: number;
  maxItems: number;
  maxDepth: number;
}

/** A copy of `v` with long strings cut (their length noted), big containers and deep nesting elided. */
function shrink(v: unknown, lim: Limits, depth: number): unknown {
  if (typeof v === 'string') {
    return v.length > lim.maxString ? `${v.slice(0, lim.maxString)}… (${v.length} chars)` : v;
  }
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= lim.maxDepth) return Array.isArray(v) ? `[… ${v.length} items]` : '{…}';
  if (Array.isArray(v)) {
    const out = v.slice(0, lim.maxItems).map((x) => shrink(x, lim, depth + 1));
    if (v.length > lim.maxItems) out.push(`… ${v.length - lim.maxItems} more items`);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(v as object);
  for (const k of keys.slice(0, lim.maxItems)) out[k] = shrink((v as Record<string, unknown>)[k], lim, depth + 1);
  if (keys.length > lim.maxItems) out['…'] = `${keys.length - lim.maxItems} more keys`;
  return out;
}
