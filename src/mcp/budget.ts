/**
 * The size cap of `mcp-tap mcp`, applied to every answer in one place: a tool result is its JSON as text
 * (for hosts that read only `content`) beside `structuredContent`, and the two together stay within the
 * token budget. A list that does not fit is cut and continued with a cursor; an answer that cannot fit
 * says how to narrow the question. Pure.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InputError } from '../errors.js';

/** The default budget of one answer, in tokens (what Claude Code allows an MCP result by default). */
export const DEFAULT_MAX_TOKENS = 25_000;

/**
 * Characters per token of the estimate: JSON runs at about 3–4 characters a token in the tokenizers
 * agents use, so counting 3 errs on the side of a smaller answer.
 */
export const CHARS_PER_TOKEN = 3;

/** Tokens of a text of `chars` characters, estimated from above. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** The characters an answer may have under a budget of `maxTokens`. */
export function charsFor(maxTokens: number): number {
  return maxTokens * CHARS_PER_TOKEN;
}

/** A tool result: the structured content, and the same as JSON text. */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Tokens of a result as it goes on the wire (text and structured content both count). */
export function resultTokens(result: CallToolResult): number {
  return estimateTokens(JSON.stringify(result).length);
}

/** An answer larger than the budget, whatever was cut: the agent is told how to ask for less. */
export class OverBudget extends InputError {
  constructor(what: string, maxTokens: number, hint: string) {
    super(`${what} is larger than the ${maxTokens}-token answer budget; ${hint}`);
    this.name = 'OverBudget';
  }
}

/** The result as is when it fits, else OverBudget. */
export function ensureFits(result: CallToolResult, maxTokens: number, hint: string): CallToolResult {
  if (resultTokens(result) > maxTokens) throw new OverBudget('this answer', maxTokens, hint);
  return result;
}

/** One page of a list: the items found from `offset` on, and whether more exist beyond them. */
export interface ListPage<T> {
  items: readonly T[];
  offset: number;
  /** Items exist after these (the tool stopped at its page size). */
  more: boolean;
}

/**
 * The largest prefix of `page.items` whose answer fits, built by `build(items, nextCursor)`; the cursor
 * (from `cursorAt(offset)`) is set when anything is left. One item that alone does not fit is OverBudget.
 */
export function fitList<T>(
  page: ListPage<T>,
  build: (items: readonly T[], nextCursor: string | undefined) => Record<string, unknown>,
  cursorAt: (offset: number) => string,
  maxTokens: number,
  hint: string,
): CallToolResult {
  const n = page.items.length;
  const at = (k: number): CallToolResult => {
    const rest = k < n || page.more;
    return toolResult(build(page.items.slice(0, k), rest ? cursorAt(page.offset + k) : undefined));
  };
  const all = at(n);
  if (resultTokens(all) <= maxTokens) return all;
  // the answer grows with k: the largest k that fits, by bisection
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (resultTokens(at(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) throw new OverBudget(n > 0 && resultTokens(at(0)) <= maxTokens ? `the item at position ${page.offset + 1} alone` : 'this answer', maxTokens, hint);
  return at(lo);
}

const MAX_CURSOR_CHARS = 8192;

/** A short digest of the question, so a cursor is only ever used for the question it belongs to. */
function digest(query: unknown): string {
  return createHash('sha256').update(stableJson(query)).digest('base64url').slice(0, 16);
}

/** JSON with object keys sorted (the same question gives the same text). */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
}

/** The cursor of `tool` for `query` (its arguments without cursor and limit), at `position`. */
export function encodeCursor(tool: string, query: unknown, position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ t: tool, q: digest(query), p: position })).toString('base64url');
}

/** The position a cursor holds; InputError for a cursor that is not one, or belongs to another question. */
export function decodeCursor(tool: string, query: unknown, cursor: string): Record<string, unknown> {
  const bad = (why: string) => new InputError(`cursor ${why}; pass the nextCursor of the previous answer with the same arguments, or no cursor to start over`);
  if (cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad('is not one this server gave');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad('is not one this server gave');
  }
  if (typeof value !== 'object' || value === null) throw bad('is not one this server gave');
  const v = value as Record<string, unknown>;
  if (v['t'] !== tool) throw bad(`belongs to another tool`);
  if (v['q'] !== digest(query)) throw bad('belongs to other arguments');
  const p = v['p'];
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad('is not one this server gave');
  return p as Record<string, unknown>;
}

/** An offset from a decoded cursor position (a whole number ≥ 0). */
export function offsetOf(position: Record<string, unknown> | undefined): number {
  const o = position?.['offset'];
  if (o === undefined) return 0;
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw new InputError('cursor is not one this server gave');
  return o;
}
