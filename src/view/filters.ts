/**
 * The filters of `mcp-tap tail` as one pure predicate over records. Different filters combine with AND;
 * the values of one filter (several globs, several kinds) combine with OR.
 */
import { isRefusedProbeAnswer } from '../protocol/probe.js';
import { UsageError } from '../errors.js';
import type { BatchItem, Kind, LogRecord } from '../log/record.js';
import { asObject } from './format.js';
import { isQuietExchange } from '../log/http-records.js';

export interface FilterOptions {
  /** Method globs: `*` any run of characters (also `/`), `?` one character; comma-separated or repeated. */
  method?: string[];
  /** Target globs (the tool of a tools/call, the prompt or resource asked for), on requests and their answers. */
  target?: string[];
  /** Which side sent it. */
  from?: 'client' | 'server' | 'proxy';
  /** Kinds to keep. */
  kind?: Kind[];
  /** Only problems: error answers, isError results, records with findings, invalid lines, failure events. */
  errors?: boolean;
  /** Case-insensitive substring of the method, target, raw text, message JSON or findings. */
  grep?: string;
  /** Only answers that took at least this many milliseconds. */
  slow?: number;
  /** Let session start/end separators through whatever the other filters say (the human view). */
  keepSeparators?: boolean;
  /** Leave out HTTP `exchange` records that say nothing the messages do not (the human view). */
  hideQuietExchanges?: boolean;
}

export type RecordFilter = (r: LogRecord) => boolean;

const KINDS: readonly Kind[] = ['request', 'response', 'error', 'notification', 'batch', 'invalid', 'stderr', 'event'];

/** Commander-style raw option values → FilterOptions; throws UsageError on a bad value. */
export function parseFilterOptions(raw: {
  method?: string | string[];
  from?: string;
  kind?: string | string[];
  errors?: boolean;
  grep?: string;
  slow?: string | number;
}): FilterOptions {
  const out: FilterOptions = {};
  const list = (v: string | string[] | undefined): string[] =>
    (Array.isArray(v) ? v : v === undefined ? [] : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const methods = list(raw.method);
  if (methods.length) out.method = methods;
  if (raw.from !== undefined) {
    if (raw.from !== 'client' && raw.from !== 'server' && raw.from !== 'proxy') {
      throw new UsageError(`--from takes client, server or proxy, got ${JSON.stringify(raw.from)}`);
    }
    out.from = raw.from;
  }
  const kinds = list(raw.kind);
  if (kinds.length) {
    for (const k of kinds) {
      if (!(KINDS as readonly string[]).includes(k)) throw new UsageError(`--kind: unknown kind ${JSON.stringify(k)} (one of ${KINDS.join(', ')})`);
    }
    out.kind = kinds as Kind[];
  }
  if (raw.errors) out.errors = true;
  if (raw.grep !== undefined && raw.grep !== '') out.grep = raw.grep;
  if (raw.slow !== undefined) {
    const s = String(raw.slow);
    if (!/^\d+(\.\d+)?$/.test(s)) throw new UsageError(`--slow takes a number of milliseconds, got ${JSON.stringify(s)}`);
    out.slow = Number(s);
  }
  return out;
}

/** A glob over method names → RegExp (anchored; every other character literal). */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  for (const ch of glob) {
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 's');
}

/** True for a string any of `globs` matches whole. */
function anyGlob(globs: readonly string[]): (v: unknown) => boolean {
  const res = globs.map(globToRegExp);
  return (v) => typeof v === 'string' && res.some((re) => re.test(v));
}

/** Builds the predicate; an empty FilterOptions keeps everything. */
export function buildFilter(opts: FilterOptions): RecordFilter {
  const tests: RecordFilter[] = [];
  if (opts.method?.length) {
    const ok = anyGlob(opts.method);
    tests.push((r) => ok(methodOf(r)) || (r.kind === 'batch' && batchItems(r).some((it) => ok(it.method))));
  }
  if (opts.target?.length) {
    const ok = anyGlob(opts.target);
    tests.push((r) => ok(r.target) || (r.kind === 'batch' && batchItems(r).some((it) => ok(it.target))));
  }
  if (opts.from) {
    const from = opts.from;
    tests.push((r) => r.from === from);
  }
  if (opts.kind?.length) {
    const kinds = new Set<string>(opts.kind);
    tests.push((r) => kinds.has(String(r.kind)));
  }
  if (opts.errors) tests.push(isProblem);
  if (opts.grep !== undefined) {
    const needle = opts.grep.toLowerCase();
    tests.push((r) => grepText(r).toLowerCase().includes(needle));
  }
  if (opts.slow !== undefined) {
    const slow = opts.slow;
    tests.push((r) => {
      // answers, and the record that ended a task (a status notification may end one)
      if (r.kind !== 'response' && r.kind !== 'error' && typeof r.taskMs !== 'number') return false;
      const ms = Math.max(typeof r.ms === 'number' ? r.ms : -1, typeof r.exchangeMs === 'number' ? r.exchangeMs : -1, typeof r.taskMs === 'number' ? r.taskMs : -1);
      return ms >= slow;
    });
  }
  if (opts.hideQuietExchanges === true) tests.push((r) => !isQuietExchange(r));
  const keep = opts.keepSeparators === true;
  if (tests.length === 0) return () => true;
  return (r) => (keep && isSeparator(r)) || tests.every((t) => t(r));
}

/** Session start and end records: the frame of a session in the human view. */
export function isSeparator(r: LogRecord): boolean {
  return r.kind === 'event' && (r.event === 'start' || r.event === 'end');
}

const PROBLEM_EVENTS = new Set(['spawn-error', 'gap', 'log-error', 'kill', 'sink-gap', 'upstream-error']);

/** What `--errors` keeps: error answers, isError results, findings, invalid lines and failure events. */
export function isProblem(r: LogRecord): boolean {
  if ((r.kind === 'error' && !isRefusedProbeAnswer(r, r.msg)) || r.kind === 'invalid' || r.isError === true) return true;
  if (r.taskStatus === 'failed' && typeof r.taskMs === 'number') return true; // the record that ended a failed task
  if (Array.isArray(r.notes) && r.notes.length > 0) return true;
  if (r.kind === 'batch') {
    const msgs = Array.isArray(r.msg) ? (r.msg as unknown[]) : [];
    const refused = (it: BatchItem, i: number) => isRefusedProbeAnswer({ kind: it.kind, from: r.from, method: it.method }, msgs[i]);
    const bad = (it: BatchItem, i: number) => (it.kind === 'error' && !refused(it, i)) || it.kind === 'invalid' || it.isError === true || (Array.isArray(it.notes) && it.notes.length > 0);
    // indexed like r.msg: the items as logged, not batchItems' object-only copy
    if ((Array.isArray(r.items) ? r.items : []).some((x, i) => asObject(x) !== undefined && bad(x as BatchItem, i))) {
      return true;
    }
  }
  if (r.kind === 'event') {
    if (typeof r.event === 'string' && PROBLEM_EVENTS.has(r.event)) return true;
    if (r.event === 'exit' && ((typeof r.code === 'number' && r.code !== 0) || typeof r.signal === 'string')) return true;
    if (r.event === 'end' && Array.isArray(r.pending) && r.pending.length > 0) return true;
    if (r.event === 'auth' && r['ok'] !== true) return true;
  }
  return false;
}

/** The method of a record, also from its message when the writer did not fill `method`. */
function methodOf(r: LogRecord): unknown {
  if (r.method !== undefined) return r.method;
  return asObject(r.msg)?.method;
}

function batchItems(r: LogRecord): BatchItem[] {
  return Array.isArray(r.items) ? (r.items.filter((x) => asObject(x)) as BatchItem[]) : [];
}

/** The text --grep searches: method, target, raw text, message JSON, finding texts; for events, all fields. */
function grepText(r: LogRecord): string {
  const parts: string[] = [];
  const m = methodOf(r);
  if (typeof m === 'string') parts.push(m);
  if (r.target !== undefined) parts.push(String(r.target));
  if (typeof r.raw === 'string') parts.push(r.raw);
  if (r.msg !== undefined) parts.push(safeJson(r.msg));
  if (Array.isArray(r.notes)) for (const n of r.notes) parts.push(safeJson(n));
  if (r.kind === 'batch') for (const it of batchItems(r)) if (typeof it.method === 'string') parts.push(it.method);
  if (r.kind === 'event') parts.push(safeJson(r));
  return parts.join('\n');
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}
