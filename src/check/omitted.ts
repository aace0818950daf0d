/**
 * What a bounded check leaves out, counted so that the verdict, the summary and the assertion outcomes
 * stay those of every request: the requests not listed (passing ones, and failing ones past the first
 * RESULTS_PER_RULE of their rule or error code), by status, and the results they would have yielded.
 * Pure.
 */
import { MAX_KEYS, moreText, OTHER_KEY } from '../log/keep-first.js';
import type { OmittedResult, RequestStatus } from './report.js';
import type { Category } from './rules.js';
import { ERROR_KEY_PREFIX, exceedsMs, maxMsMatches, resultKeysOf, statusOf, type JudgedRequest, type RequestJudges } from './request-results.js';

/**
 * Error codes whose left-out answers are counted one by one; the answers of further codes are counted
 * together under OTHER_ERROR_CODES_KEY — a server that numbers its errors (an errno, a random code) would
 * otherwise make one count, and one `… and 1 more` line, per answer.
 */
export const MAX_ERROR_CODES = MAX_KEYS;

/** The result key of left-out error answers of codes past the first MAX_ERROR_CODES. */
export const OTHER_ERROR_CODES_KEY = 'jsonrpc-error (other codes)';


/** Requests not in SessionFacts.requests, and what they count for. */
export interface OmittedRequests {
  requests: number;
  /** Of them, task calls (answered with a CreateTaskResult). */
  tasks: number;
  byStatus: Map<RequestStatus, number>;
  /** The results they yield, by result key (resultKeysOf: a rule id, `jsonrpc-error error <code>`, past MAX_ERROR_CODES codes OTHER_ERROR_CODES_KEY). */
  results: Map<string, number>;
  /** Distinct error codes among the keys of `results`. */
  errorCodes: number;
  /** By `${key}=${ms}`, as the --max-ms flag reads: the requests it matched, and those that broke it. */
  maxMsMatched: Map<string, number>;
  maxMsFailed: Map<string, number>;
  /** By tool: calls of a --forbid-tool left out. */
  forbidCalled: Map<string, number>;
}

/** Nothing left out yet. */
export function noneOmitted(judges: RequestJudges): OmittedRequests {
  const flags = judges.maxMs.map((l) => `${l.key}=${l.ms}`);
  return {
    requests: 0,
    tasks: 0,
    byStatus: new Map(),
    results: new Map(),
    errorCodes: 0,
    maxMsMatched: new Map(flags.map((f) => [f, 0])),
    maxMsFailed: new Map(flags.map((f) => [f, 0])),
    forbidCalled: new Map(),
  };
}

const bump = <K>(m: Map<K, number>, k: K, by = 1): void => {
  m.set(k, (m.get(k) ?? 0) + by);
};

/** Counts one request left out (its answer, or the lack of one, is final). */
export function countOmitted(o: OmittedRequests, q: JudgedRequest, judges: RequestJudges): void {
  o.requests++;
  if (q.task) o.tasks++;
  const status = statusOf(q);
  bump(o.byStatus, status);
  for (const key of resultKeysOf(q, judges)) bump(o.results, foldCode(o, key));
  if (status !== 'cancelled' && judges.maxMs.length > 0) {
    // one count per flag, even when the same flag is given twice
    const seen = new Set<string>();
    for (const l of judges.maxMs) {
      const flag = `${l.key}=${l.ms}`;
      if (seen.has(flag) || !maxMsMatches(l.key, q)) continue;
      seen.add(flag);
      bump(o.maxMsMatched, flag);
      if (exceedsMs(q, status, l.ms)) bump(o.maxMsFailed, flag);
    }
  }
  for (const t of new Set(judges.forbidTools)) if (q.method === 'tools/call' && q.target === t) bump(o.forbidCalled, t);
}

/** The key a left-out result is counted under: its own, or past MAX_ERROR_CODES error codes the shared one. */
function foldCode(o: OmittedRequests, key: string): string {
  if (!key.startsWith(ERROR_KEY_PREFIX) || o.results.has(key)) return key;
  if (o.errorCodes >= MAX_ERROR_CODES) return OTHER_ERROR_CODES_KEY;
  o.errorCodes++;
  return key;
}

/** Categories whose results are findings (notes of the analysis and of the lenses), not outcomes of requests. */
const NOTE_CATEGORIES: ReadonlySet<Category> = new Set<Category>(['findings', 'spec', 'security', 'info']);

/** How every check format says what a rule left out: `… and 99,000 more before-initialize findings`. */
export function omittedResultText(o: OmittedResult): string {
  const s = o.count === 1 ? '' : 's';
  const what =
    o.ruleId === OTHER_KEY
      ? `finding${s} of other codes`
      : NOTE_CATEGORIES.has(o.category)
        ? `${o.ruleId} finding${s}`
        : `${o.ruleId} result${s}${o.otherCodes ? ` (other error codes, past the first ${MAX_ERROR_CODES})` : o.errorCode !== undefined ? ` (error ${o.errorCode ?? 'without a code'})` : ''}`;
  return moreText(o.count, what);
}
