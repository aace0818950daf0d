/**
 * How a request ended and which results it yields, as keys: shared by evaluate (which writes the
 * results) and the bounded gatherer (which counts the results of requests it leaves out), so a long
 * session's counts are those of every request. Pure.
 */
import { isRefusedProbe } from '../protocol/probe.js';
import { errorKey } from '../log/keep-first.js';
import type { JsonRpcId } from '../log/record.js';
import type { RequestStatus } from './report.js';

/** What judging a request reads of it (gather.ts' RequestFact has these). */
export interface JudgedRequest {
  from: 'client' | 'server';
  id: JsonRpcId;
  method: string;
  target?: string;
  cancelled: boolean;
  answer?: { kind: 'response' | 'error'; isError: boolean; ms?: number; error?: { code?: number } };
  /** The answer created a task: the request ends with it (gather.ts' TaskFact). */
  task?: { status: string; ended: boolean; runningMs?: number };
}

/** A server/discover the server refused: the protocol working, the client falls back. */
export const refusedProbe = (q: JudgedRequest): boolean => q.answer?.kind === 'error' && isRefusedProbe(q.method, q.from, q.answer.error?.code);

/** The status a request's outcome reports; a task call's is its task's (running, failed, cancelled). */
export function statusOf(q: JudgedRequest): RequestStatus {
  if (refusedProbe(q)) return 'refused-probe';
  const t = q.task;
  if (t && !t.ended) return 'task-running';
  if (t?.status === 'failed') return 'task-failed';
  if (t?.status === 'cancelled') return 'cancelled';
  if (q.answer) return q.answer.kind === 'error' ? 'error' : q.answer.isError ? 'is-error' : 'ok';
  return q.cancelled ? 'cancelled' : 'unanswered';
}

/** The key a jsonrpc-error result is bounded and counted by: one per error code. */
export const jsonrpcErrorKey = (code: number | undefined): string => `jsonrpc-error ${errorKey(code)}`;

/** What every jsonrpcErrorKey starts with (the code follows). */
export const ERROR_KEY_PREFIX = jsonrpcErrorKey(undefined).slice(0, -1);

/** Rounded as the report shows it, so a limit judges the same number in the gatherer and in evaluate. */
export const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

/** The assertions a request is judged by. */
export interface RequestJudges {
  maxMs: ReadonlyArray<{ key: string; ms: number }>;
  forbidTools: readonly string[];
}

/** Whether a --max-ms key applies to a request (client requests, by method, target or `*`). */
export const maxMsMatches = (key: string, q: { from: string; method: string; target?: string }): boolean =>
  q.from === 'client' && (key === '*' || q.method === key || (q.target !== undefined && q.target === key));

/**
 * Whether a request of this status breaks a --max-ms limit of `limitMs` (assertions.ts judges listed
 * requests by the same rule): no answer at all does; a task still running does once it has run longer
 * (its duration is at least that); anything else by its duration, a task call's being its task's.
 */
export function exceedsMs(q: JudgedRequest, status: RequestStatus, limitMs: number): boolean {
  if (status === 'cancelled') return false;
  if (status === 'unanswered') return true;
  if (status === 'task-running') return q.task?.runningMs !== undefined && roundMs(q.task.runningMs) > limitMs;
  return q.answer?.ms !== undefined && roundMs(q.answer.ms) > limitMs;
}

/**
 * The result keys (rule ids; `jsonrpc-error error <code>` for errors) evaluate writes for this request
 * once it has ended, one per result.
 */
export function resultKeysOf(q: JudgedRequest, judges: RequestJudges): string[] {
  const keys: string[] = [];
  const status = statusOf(q);
  if (status === 'task-failed') keys.push('task-failed');
  else if (status === 'error') {
    keys.push(jsonrpcErrorKey(q.answer?.error?.code));
    if (q.method === 'initialize' && q.from === 'client') keys.push('initialize-failed');
  } else if (status === 'is-error') keys.push('tool-is-error');
  else if (status === 'unanswered' && q.id !== null) keys.push('unanswered-request');
  for (const l of judges.maxMs) if (maxMsMatches(l.key, q) && exceedsMs(q, status, l.ms)) keys.push('max-ms-exceeded');
  for (const t of judges.forbidTools) if (q.method === 'tools/call' && q.target === t) keys.push('forbidden-tool-present');
  return keys;
}

/**
 * Why a bounded check keeps a request past the listed ones, as quota keys (its error code, its status,
 * its method when it is initialize or a listing, the assertion it breaks); empty when it plainly passed.
 */
export function reasonsToKeep(q: JudgedRequest, judges: RequestJudges, initOrListing: boolean): string[] {
  const out: string[] = [];
  const status = statusOf(q);
  if (status === 'error') out.push(jsonrpcErrorKey(q.answer?.error?.code));
  else if (status !== 'ok') out.push(status);
  if (initOrListing) out.push(q.method);
  if (judges.forbidTools.some((t) => q.method === 'tools/call' && q.target === t)) out.push('forbidden-tool-present');
  if (judges.maxMs.some((l) => maxMsMatches(l.key, q) && exceedsMs(q, status, l.ms))) out.push('max-ms-exceeded');
  return out;
}
