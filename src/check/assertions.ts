/**
 * Command-line assertions about a session: `--max-ms <method-or-target>=<ms>` (latency limits),
 * `--expect-tool <name>` (the server lists it) and `--forbid-tool <name>` (it neither lists nor is asked
 * to run it). Parsing throws UsageError; evaluation is pure over the gathered facts.
 */
import { UsageError } from '../errors.js';
import type { Located, SessionFacts } from './facts.js';
import type { OmittedRequests } from './omitted.js';
import { maxMsMatches } from './request-results.js';
import type { AssertionOutcome, Problem, RequestOutcome } from './report.js';

/** One `--max-ms` limit. */
export interface MaxMs {
  /** A method (`tools/call`, `initialize`), a target (tool or prompt name, resource uri), or `*`. */
  key: string;
  ms: number;
}

/** The assertions given on the command line. */
export interface Assertions {
  maxMs: MaxMs[];
  expectTools: string[];
  forbidTools: string[];
  /** --max-context-tokens: the tool definitions and instructions, in tokens. */
  maxContextTokens?: number;
  /** --max-result-tokens: any one tool result, in tokens. */
  maxResultTokens?: number;
}

/** No assertion flags given. */
export const NO_ASSERTIONS: Assertions = { maxMs: [], expectTools: [], forbidTools: [] };

/** `name=ms` values → limits; the name may itself contain `=` (split at the last one). */
export function parseMaxMs(values: readonly string[] | undefined): MaxMs[] {
  return (values ?? []).map((v) => {
    const eq = v.lastIndexOf('=');
    const key = eq > 0 ? v.slice(0, eq).trim() : '';
    const ms = eq > 0 ? v.slice(eq + 1).trim() : '';
    if (key === '' || !/^\d+(\.\d+)?$/.test(ms)) {
      throw new UsageError(`--max-ms takes <method-or-tool>=<milliseconds>, e.g. tools/call=500, got ${JSON.stringify(v)}`);
    }
    return { key, ms: Number(ms) };
  });
}

/** A token budget flag's value: a whole number ≥ 1. */
export function parseTokens(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new UsageError(`${flag} takes a number of tokens (a whole number ≥ 1), got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Tool names as given; empty names are a usage error. */
export function parseToolNames(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((v) => {
    if (v.trim() === '') throw new UsageError(`${flag} needs a tool name`);
    return v;
  });
}

const matches = maxMsMatches;

const showMs = (ms: number): string => `${Number(ms.toFixed(1))} ms`;

/**
 * Results and per-flag outcomes of the assertions; `requests` are the session's listed request outcomes
 * (indexed), `omitted` what the requests left out of them count for (matches and failures per flag).
 */
export function evaluateAssertions(
  facts: SessionFacts,
  requests: readonly RequestOutcome[],
  a: Assertions,
  omitted?: Pick<OmittedRequests, 'maxMsMatched' | 'maxMsFailed' | 'forbidCalled'>,
): { problems: Problem[]; outcomes: AssertionOutcome[] } {
  const problems: Problem[] = [];
  const outcomes: AssertionOutcome[] = [];
  const fallback: Partial<Located> = facts.first ?? {};

  for (const limit of a.maxMs) {
    let matched = omitted?.maxMsMatched.get(`${limit.key}=${limit.ms}`) ?? 0;
    let failures = omitted?.maxMsFailed.get(`${limit.key}=${limit.ms}`) ?? 0;
    requests.forEach((r, index) => {
      if (!matches(limit.key, r) || r.status === 'cancelled') return;
      matched++;
      const name = r.target !== undefined ? `${r.method} ${JSON.stringify(r.target)}` : r.method;
      if (r.status === 'task-running') {
        // its duration is at least the rest of the session
        if (r.runningMs !== undefined && r.runningMs > limit.ms) {
          failures++;
          problems.push({ ruleId: 'max-ms-exceeded', category: 'assertions', assertion: outcomes.length, message: `${name} (seq ${r.seq}): its task was still running after ${showMs(r.runningMs)} when the session ended, over the ${showMs(limit.ms)} limit (--max-ms ${limit.key}=${limit.ms})`, seq: r.seq, line: r.line, request: index });
        }
      } else if (r.status === 'unanswered') {
        failures++;
        problems.push({ ruleId: 'max-ms-exceeded', category: 'assertions', assertion: outcomes.length, message: `${name} (seq ${r.seq}) got no answer; limit ${showMs(limit.ms)} (--max-ms ${limit.key}=${limit.ms})`, seq: r.seq, line: r.line, request: index });
      } else if (r.ms !== undefined && r.ms > limit.ms) {
        failures++;
        // located at the answer, where the latency was measured
        const at = r.answerSeq !== undefined && r.answerLine !== undefined ? { seq: r.answerSeq, line: r.answerLine } : { seq: r.seq, line: r.line };
        problems.push({ ruleId: 'max-ms-exceeded', category: 'assertions', assertion: outcomes.length, message: `${name} (seq ${r.seq}) took ${showMs(r.ms)}, over the ${showMs(limit.ms)} limit (--max-ms ${limit.key}=${limit.ms})`, ...at, request: index });
      }
    });
    outcomes.push({ flag: `--max-ms ${limit.key}=${limit.ms}`, passed: failures === 0, failures, matched });
  }

  const listed = new Map((facts.tools ?? []).map((t) => [t.key, t.at]));
  for (const name of a.expectTools) {
    const ok = listed.has(name);
    if (!ok) {
      const why = facts.tools === null ? 'the session has no tools/list answer' : `the server lists ${facts.tools.length} tool${facts.tools.length === 1 ? '' : 's'}, not this one`;
      const at = lastListing(facts) ?? fallback;
      problems.push({ ruleId: 'expected-tool-missing', category: 'assertions', assertion: outcomes.length, message: `expected tool ${JSON.stringify(name)} is missing: ${why}`, ...at });
    }
    outcomes.push({ flag: `--expect-tool ${name}`, passed: ok, failures: ok ? 0 : 1 });
  }

  for (const name of a.forbidTools) {
    let failures = omitted?.forbidCalled.get(name) ?? 0;
    const at = listed.get(name);
    if (at) {
      failures++;
      problems.push({ ruleId: 'forbidden-tool-present', category: 'assertions', assertion: outcomes.length, message: `forbidden tool ${JSON.stringify(name)} is offered in tools/list`, seq: at.seq, line: at.line });
    }
    requests.forEach((r, index) => {
      if (r.method !== 'tools/call' || r.target !== name) return;
      failures++;
      problems.push({ ruleId: 'forbidden-tool-present', category: 'assertions', assertion: outcomes.length, message: `forbidden tool ${JSON.stringify(name)} was called (seq ${r.seq})`, seq: r.seq, line: r.line, request: index });
    });
    outcomes.push({ flag: `--forbid-tool ${name}`, passed: failures === 0, failures });
  }
  budgets(facts, a, problems, outcomes, fallback);
  return { problems, outcomes };
}

const n = (x: number): string => x.toLocaleString('en-US');

/** --max-context-tokens and --max-result-tokens, judged on the context cost gathered with the facts. */
function budgets(facts: SessionFacts, a: Assertions, problems: Problem[], outcomes: AssertionOutcome[], fallback: Partial<Located>): void {
  const ctx = facts.context;
  if (a.maxContextTokens !== undefined) {
    const limit = a.maxContextTokens;
    const flag = `--max-context-tokens ${limit}`;
    const total = ctx?.beforeFirstMessage ?? 0;
    const ok = total <= limit;
    if (!ok && ctx) {
      const top = [...(ctx.tools?.items ?? [])].sort((x, y) => y.tokens - x.tokens).slice(0, 3).map((t) => `${JSON.stringify(t.name)} ${n(t.tokens)}`);
      if (ctx.instructions) top.push(`instructions ${n(ctx.instructions.tokens)}`);
      problems.push({
        ruleId: 'max-context-tokens-exceeded',
        category: 'assertions',
        assertion: outcomes.length,
        message: `the tool definitions${ctx.instructions ? ' and instructions' : ''} cost ${n(total)} tokens (${ctx.tokenizer}), over the ${n(limit)} limit (${flag}); most: ${top.join(', ')}`,
        ...(lastListing(facts) ?? fallback),
      });
    }
    outcomes.push({ flag, passed: ok, failures: ok ? 0 : 1, matched: ctx?.tools ? 1 : 0 });
  }
  if (a.maxResultTokens !== undefined) {
    const limit = a.maxResultTokens;
    const flag = `--max-result-tokens ${limit}`;
    const over = ctx?.overLimit;
    for (const r of over?.first ?? []) {
      const line = facts.lines?.get(r.seq);
      problems.push({
        ruleId: 'max-result-tokens-exceeded',
        category: 'assertions',
        assertion: outcomes.length,
        message: `the result of tool ${JSON.stringify(r.tool)} (seq ${r.seq}) costs ${r.estimated ? 'about ' : ''}${n(r.tokens)} tokens (${ctx!.tokenizer}), over the ${n(limit)} limit (${flag})`,
        seq: r.seq,
        ...(line !== undefined ? { line } : {}),
      });
    }
    const count = over?.count ?? 0;
    outcomes.push({ flag, passed: count === 0, failures: count, matched: ctx?.results.count ?? 0 });
  }
}

/** The answer record of the latest tools/list, where tool-level results are located. */
function lastListing(facts: SessionFacts): Located | undefined {
  const t = facts.tools?.at(-1);
  if (t) return t.at;
  const q = [...facts.requests].reverse().find((r) => r.method === 'tools/list' && r.answer);
  return q?.answer ? { seq: q.answer.seq, line: q.answer.line } : undefined;
}
