/**
 * Context cost: what a session puts into the model's context, in bytes and tokens — each tool
 * definition and the listings' totals, the server's instructions, each tool result — and what follows
 * from it: what the server costs before the first message, the tools never called, the largest
 * results. A pure fold over one session's records (tokenizer injected); bounded: definitions and tools
 * are capped, results keep only their per-tool totals and the largest few.
 */
import type { LogRecord } from '../../log/record.js';
import { definitionText, resultText, TRUNCATED_TAIL, utf8Length, type ListingKind } from './model-text.js';
import type { Tokenizer } from './tokenizer.js';

/** Bytes and tokens of one text; `estimated` when the log holds a shortened copy (scaled to its size). */
export interface Cost {
  bytes: number;
  tokens: number;
  estimated?: true;
}

/** One definition of a listing and its cost. */
export interface DefinitionCost extends Cost {
  name: string;
}

/** A listing: its definitions (latest listing, pages merged) and their sum. */
export interface ListingCost {
  count: number;
  total: Cost;
  items: DefinitionCost[];
}

/** One tool result. */
export interface ResultCost extends Cost {
  tool: string;
  /** seq of the answer record. */
  seq: number;
  /** Bytes of images and audio in it (not tokenized). */
  mediaBytes?: number;
}

/** The results of one tool over the session. */
export interface ToolResults {
  tool: string;
  calls: number;
  tokens: number;
  bytes: number;
  maxTokens: number;
  estimated?: true;
}

/** What one session costs the model's context. */
export interface ContextCost {
  session: string;
  tokenizer: string;
  tools: ListingCost | null;
  prompts: ListingCost | null;
  resources: ListingCost | null;
  resourceTemplates: ListingCost | null;
  instructions: Cost | null;
  /** Tokens in context before the user's first message: tool definitions and instructions. */
  beforeFirstMessage: number;
  /** Tools of the latest listing that no tools/call of the session named, with their definition's tokens. */
  neverCalled: DefinitionCost[];
  /** Every tool result of the session, summed; `estimated` once results past EXACT_RESULT_BYTES were estimated from their size. */
  results: { count: number; bytes: number; tokens: number; estimated?: true };
  /** Per tool, by total tokens (largest first). */
  perTool: ToolResults[];
  /** The largest results, by tokens. */
  largestResults: ResultCost[];
  /** With a result limit (check --max-result-tokens): how many results exceeded it, and the first of them. */
  overLimit?: { limit: number; count: number; first: ResultCost[] };
}

const LISTINGS: Record<string, { field: string; key: string; slot: ListingKind }> = {
  'tools/list': { field: 'tools', key: 'name', slot: 'tools' },
  'prompts/list': { field: 'prompts', key: 'name', slot: 'prompts' },
  'resources/list': { field: 'resources', key: 'uri', slot: 'resources' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate', slot: 'resourceTemplates' },
};

/** Largest results kept per session. */
export const LARGEST_RESULTS = 5;
/** Result text per session counted token by token; past it results are estimated at their tool's rate (see resultCost). */
export const EXACT_RESULT_BYTES = 8 * 1024 * 1024;
/** How much the 4-bytes-per-token prior weighs in estimating what the log cut (see shortened()). */
const PRIOR_BYTES = 1024;
/** Results over a limit kept whole; the rest are counted. */
export const OVER_LIMIT_KEPT = 50;
const MAX_DEFINITIONS = 10_000;
const MAX_TOOLS = 10_000;

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Which records the fold reads whole: answers to initialize, the listings and tools/call. */
export function contextNeedsBody(head: LogRecord): boolean {
  if (head.kind !== 'response' || typeof head.method !== 'string') return false;
  return head.method === 'initialize' || head.method === 'tools/call' || Object.hasOwn(LISTINGS, head.method);
}

const sum = (items: readonly Cost[]): Cost => {
  const c: Cost = { bytes: 0, tokens: 0 };
  for (const i of items) {
    c.bytes += i.bytes;
    c.tokens += i.tokens;
    if (i.estimated) c.estimated = true;
  }
  return c;
};

/** One session's context cost, fed its records in log order. */
export class ContextCostBuilder {
  private readonly listings = new Map<ListingKind, Map<string, DefinitionCost>>();
  private instructions: Cost | null = null;
  private readonly called = new Set<string>();
  private readonly perTool = new Map<string, ToolResults>();
  private readonly results: { count: number; bytes: number; tokens: number; estimated?: true } = { count: 0, bytes: 0, tokens: 0 };
  /** Result text counted exactly so far, and per tool (the rates estimates use past EXACT_RESULT_BYTES). */
  private countedBytes = 0;
  private readonly exact = new Map<string, { bytes: number; tokens: number }>();
  private readonly exactAll = { bytes: 0, tokens: 0 };
  private largest: ResultCost[] = [];
  /** Listings whose last page had a nextCursor: the next answer continues them. */
  private readonly continuing = new Set<ListingKind>();

  private readonly over?: { limit: number; count: number; first: ResultCost[] };

  constructor(
    private readonly session: string,
    private readonly tokenizer: Tokenizer,
    resultLimit?: number,
    private readonly exactBytes = EXACT_RESULT_BYTES,
  ) {
    if (resultLimit !== undefined) this.over = { limit: resultLimit, count: 0, first: [] };
  }

  /**
   * The cost of a result the log shortened (an estimate): each cut string counts its kept head exactly
   * and the bytes the shortener cut (it records the string's whole size) at a tokens-per-byte rate
   * learned from the kept text, pulled towards 1 token per 4 bytes (o200k on English prose) as a prior
   * worth PRIOR_BYTES — a kept head of a few hundred bytes alone is too small a sample. Elided content
   * counts at the same rate.
   */
  private shortened(parts: readonly string[], elidedBytes: number): Cost {
    let bytes = 0;
    let tokens = 0;
    let unseen = 0;
    let keptBytes = 0;
    let keptTokens = 0;
    for (const p of parts) {
      const cut = TRUNCATED_TAIL.exec(p);
      const head = cut ? p.slice(0, cut.index) : p;
      const headBytes = utf8Length(head);
      const headTokens = this.tokenizer.count(head);
      keptBytes += headBytes;
      keptTokens += headTokens;
      bytes += headBytes;
      tokens += headTokens;
      if (!cut) continue;
      // N counts the string as sent, JSON-escaped: the head's escaping rate turns it back into text bytes
      const escaped = Math.max(1, utf8Length(JSON.stringify(head)) - 2);
      unseen += Math.max(0, Math.round((Number(cut[1]) - escaped) * (headBytes / escaped)));
    }
    unseen += elidedBytes;
    const rate = (keptTokens + PRIOR_BYTES / 4) / (keptBytes + PRIOR_BYTES);
    return { bytes: bytes + unseen, tokens: tokens + Math.round(unseen * rate), estimated: true };
  }

  /** The cost of `text`; a shortened copy is scaled by how much of the line the log kept. */
  private cost(text: string, r: LogRecord): Cost {
    const bytes = utf8Length(text);
    const tokens = this.tokenizer.count(text);
    if (r.truncated !== true || typeof r.bytes !== 'number' || r.msg === undefined) return { bytes, tokens };
    const kept = utf8Length(JSON.stringify(r.msg));
    const scale = kept > 0 ? Math.max(1, r.bytes / kept) : 1;
    return { bytes: Math.round(bytes * scale), tokens: Math.round(tokens * scale), estimated: true };
  }

  add(r: LogRecord): void {
    if (r.kind === 'request' && r.from === 'client' && r.method === 'tools/call' && typeof r.target === 'string') {
      if (this.called.size < MAX_TOOLS) this.called.add(r.target);
      return;
    }
    if (r.kind !== 'response' || r.from !== 'server' || !isObj(r.msg)) return;
    const result = r.msg['result'];
    if (!isObj(result)) return;
    if (r.method === 'initialize') {
      const ins = result['instructions'];
      if (typeof ins === 'string' && ins !== '') this.instructions = this.cost(ins, r);
      return;
    }
    if (r.method === 'tools/call') {
      this.result(r, result);
      return;
    }
    const spec = r.method !== undefined ? LISTINGS[r.method] : undefined;
    if (!spec) return;
    const items = result[spec.field];
    if (!Array.isArray(items)) return;
    // the answer after a page with nextCursor continues that listing; any other starts it over (a refresh)
    let map = this.listings.get(spec.slot);
    if (!map || !this.continuing.has(spec.slot)) {
      map = new Map();
      this.listings.set(spec.slot, map);
    }
    if (typeof result['nextCursor'] === 'string') this.continuing.add(spec.slot);
    else this.continuing.delete(spec.slot);
    for (const def of items) {
      if (!isObj(def) || map.size >= MAX_DEFINITIONS) continue;
      const name = def[spec.key];
      if (typeof name !== 'string') continue;
      map.set(name, { name, ...this.cost(definitionText(spec.slot, def), r) });
    }
  }

  /** Tokens per byte of `tool`'s results counted so far (else of all results, else 1 per 4 bytes). */
  private rate(tool: string): number {
    const t = this.exact.get(tool);
    if (t && t.bytes > 0) return t.tokens / t.bytes;
    return this.exactAll.bytes > 0 ? this.exactAll.tokens / this.exactAll.bytes : 0.25;
  }

  /** Counts `text` exactly and learns the tool's rate from it. */
  private countExactly(tool: string, text: string, bytes: number): Cost {
    const tokens = this.tokenizer.count(text);
    this.countedBytes += bytes;
    let t = this.exact.get(tool);
    if (!t && this.exact.size < MAX_TOOLS) this.exact.set(tool, (t = { bytes: 0, tokens: 0 }));
    if (t) {
      t.bytes += bytes;
      t.tokens += tokens;
    }
    this.exactAll.bytes += bytes;
    this.exactAll.tokens += tokens;
    return { bytes, tokens };
  }

  /**
   * A result's cost: counted exactly while the session's counted result text is under EXACT_RESULT_BYTES;
   * past it, estimated from its size at the tool's rate — unless the estimate could make it one of the
   * largest or put it over the result limit, where it is counted exactly after all. So a long session
   * costs bounded tokenizer time and the figures that are named stay exact.
   */
  private resultCost(tool: string, text: string): Cost {
    const bytes = utf8Length(text);
    if (this.countedBytes < this.exactBytes) return this.countExactly(tool, text, bytes);
    const guess = Math.round(bytes * this.rate(tool));
    const last = this.largest.at(-1);
    const mayBeLargest = this.largest.length < LARGEST_RESULTS || (last !== undefined && guess * 1.25 >= last.tokens);
    const mayBeOver = this.over !== undefined && guess * 1.25 >= this.over.limit;
    if (mayBeLargest || mayBeOver) return this.countExactly(tool, text, bytes);
    return { bytes, tokens: guess, estimated: true };
  }

  private result(r: LogRecord, result: Obj): void {
    const tool = typeof r.target === 'string' ? r.target : '(unknown tool)';
    const { text, parts, mediaBytes, elidedBytes } = resultText(result);
    const c = r.truncated === true ? this.shortened(parts, elidedBytes) : this.resultCost(tool, text);
    this.results.count++;
    this.results.bytes += c.bytes;
    this.results.tokens += c.tokens;
    if (c.estimated) this.results.estimated = true;
    let t = this.perTool.get(tool);
    if (!t && this.perTool.size < MAX_TOOLS) this.perTool.set(tool, (t = { tool, calls: 0, tokens: 0, bytes: 0, maxTokens: 0 }));
    if (t) {
      t.calls++;
      t.tokens += c.tokens;
      t.bytes += c.bytes;
      t.maxTokens = Math.max(t.maxTokens, c.tokens);
      if (c.estimated) t.estimated = true;
    }
    const entry: ResultCost = { tool, seq: r.seq, ...c, ...(mediaBytes > 0 ? { mediaBytes } : {}) };
    if (this.over && c.tokens > this.over.limit) {
      this.over.count++;
      if (this.over.first.length < OVER_LIMIT_KEPT) this.over.first.push(entry);
    }
    const last = this.largest.at(-1);
    if (this.largest.length < LARGEST_RESULTS || (last !== undefined && c.tokens > last.tokens)) {
      this.largest.push(entry);
      this.largest.sort((a, b) => b.tokens - a.tokens || a.seq - b.seq);
      if (this.largest.length > LARGEST_RESULTS) this.largest.length = LARGEST_RESULTS;
    }
  }

  /** The running totals a live card shows: tokens before the first message, and of all results so far. Cheap (no copies). */
  totals(): { beforeFirstMessage: number; resultTokens: number } {
    let tools = 0;
    for (const d of this.listings.get('tools')?.values() ?? []) tools += d.tokens;
    return { beforeFirstMessage: tools + (this.instructions?.tokens ?? 0), resultTokens: this.results.tokens };
  }

  finish(): ContextCost {
    const listing = (slot: ListingKind): ListingCost | null => {
      const map = this.listings.get(slot);
      if (!map) return null;
      const items = [...map.values()];
      return { count: items.length, total: sum(items), items };
    };
    const tools = listing('tools');
    const neverCalled = (tools?.items ?? []).filter((t) => !this.called.has(t.name));
    return {
      session: this.session,
      tokenizer: this.tokenizer.name,
      tools,
      prompts: listing('prompts'),
      resources: listing('resources'),
      resourceTemplates: listing('resourceTemplates'),
      instructions: this.instructions,
      beforeFirstMessage: (tools?.total.tokens ?? 0) + (this.instructions?.tokens ?? 0),
      neverCalled,
      results: { ...this.results },
      perTool: [...this.perTool.values()].sort((a, b) => b.tokens - a.tokens || a.tool.localeCompare(b.tool)),
      largestResults: [...this.largest],
      ...(this.over ? { overLimit: { ...this.over, first: [...this.over.first] } } : {}),
    };
  }
}

/** Folds records of any number of sessions, one ContextCostBuilder each, closed at their `end` record. */
export class ContextCosts {
  private readonly open = new Map<string, ContextCostBuilder>();
  private readonly done: ContextCost[] = [];

  constructor(private readonly tokenizer: Tokenizer) {}

  add(r: LogRecord): void {
    const key = typeof r.session === 'string' ? r.session : '';
    let b = this.open.get(key);
    if (!b) this.open.set(key, (b = new ContextCostBuilder(key, this.tokenizer)));
    b.add(r);
    if (r.kind === 'event' && r.event === 'end') {
      this.done.push(b.finish());
      this.open.delete(key);
    }
  }

  /** Every session's cost, in the order the sessions ended (open ones last). */
  finish(): ContextCost[] {
    return [...this.done, ...[...this.open.values()].map((b) => b.finish())];
  }
}
