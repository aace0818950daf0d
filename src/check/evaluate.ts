/**
 * Judges a session: facts (gather.ts) + options → the CheckReport every renderer lays out. Pure; the
 * JSON Schema validator and what `check --run` saw on the client side come in as arguments.
 */
import { KeepFirst } from '../log/keep-first.js';
import type { JsonRpcId } from '../log/record.js';
import { unendedState } from '../platform/process-alive.js';
import { VERSION } from '../version.js';
import { evaluateAssertions, NO_ASSERTIONS, type Assertions } from './assertions.js';
import { DEFAULT_FAIL_ON, failsOn, type FailOn } from './fail-on.js';
import { RESULTS_PER_RULE, type Located, type RequestFact, type SessionFacts } from './facts.js';
import type { CheckReport, OmittedResult, Problem, RequestOutcome } from './report.js';
import { OTHER_ERROR_CODES_KEY } from './omitted.js';
import { ERROR_KEY_PREFIX, jsonrpcErrorKey, refusedProbe as refused, roundMs as round, statusOf } from './request-results.js';
import { ruleFor, type Category } from './rules.js';
import { checkToolSchemas, type SchemaValidator } from './schema-check.js';

/** What `check --run` knows beyond the log: the command, a timeout that fired, answers the SDK rejected. */
export interface RunContext {
  command: string;
  args: string[];
  timeoutMs: number;
  /** The step that got no answer within timeoutMs (the session was ended there). */
  timedOut?: { method: string; target?: string };
  /** Requests that failed in the SDK client, by the id it sent; those answered with a result were rejected by its validation. */
  clientErrors: Array<{ id: JsonRpcId; method: string; target?: string; message: string }>;
  /** Steps the SDK client refused to send (they are not in the log). */
  notSent?: Array<{ method: string; target?: string; message: string }>;
  /** mcp-tap wrote no record of the session; what it said on stderr. */
  tapFailure?: string;
}

/** How to judge: the categories that fail, the assertions, the schema validator, what --run saw. */
export interface EvaluateOptions {
  failOn?: readonly FailOn[];
  assertions?: Assertions;
  /** Meta-schema validation of tool schemas; null: not available (a warning says so); undefined: not asked. */
  validator?: SchemaValidator | null;
  run?: RunContext;
  /** Whether mcp-tap's pid still runs here (a session with no end record: running, or killed). */
  alive?: (pid: number) => boolean;
  /** Results listed per rule (and error code); default RESULTS_PER_RULE. */
  perRule?: number;
}

const nameOf = (q: { method: string; target?: string }): string => (q.target !== undefined ? `${q.method} ${JSON.stringify(q.target)}` : q.method);
const idOf = (id: unknown): string => JSON.stringify(id);


/** A result key (a rule id, or `jsonrpc-error error <code>`) → the rule and error code it counts. */
function keyRule(key: string): { ruleId: string; errorCode?: number | null; otherCodes?: true } {
  if (key === OTHER_ERROR_CODES_KEY) return { ruleId: 'jsonrpc-error', otherCodes: true };
  if (!key.startsWith(ERROR_KEY_PREFIX)) return { ruleId: key };
  const code = Number(key.slice(ERROR_KEY_PREFIX.length));
  return { ruleId: 'jsonrpc-error', errorCode: Number.isFinite(code) && key.slice(ERROR_KEY_PREFIX.length) !== '?' ? code : null };
}

/** Keeps the first `perRule` results of each key, in log order; counts the rest into `omitted`. */
function capResults(sorted: Problem[], requests: readonly RequestOutcome[], perRule: number, omitted: Map<string, number>): Problem[] {
  const quota = new KeepFirst({ perKey: perRule, maxKeys: Infinity });
  const kept: Problem[] = [];
  for (const p of sorted) {
    const key = p.ruleId === 'jsonrpc-error' && p.request !== undefined ? jsonrpcErrorKey(requests[p.request]?.error?.code) : p.ruleId;
    if (quota.take(key)) kept.push(p);
    else omitted.set(key, (omitted.get(key) ?? 0) + 1);
  }
  return kept;
}

function outcomeOf(q: RequestFact): RequestOutcome {
  const o: RequestOutcome = { seq: q.seq, line: q.line, from: q.from, id: q.id, method: q.method, status: statusOf(q) };
  if (q.target !== undefined) o.target = q.target;
  if (q.task && !q.task.ended) {
    if (q.task.runningMs !== undefined) o.runningMs = round(q.task.runningMs);
  } else if (q.answer?.ms !== undefined) o.ms = round(q.answer.ms);
  if (q.task) o.task = { taskId: q.task.taskId, status: q.task.status };
  if (q.answer?.error) o.error = q.answer.error;
  if (q.answer) {
    o.answerSeq = q.answer.seq;
    o.answerLine = q.answer.line;
  }
  return o;
}

/** The check's verdict on one session. */
export function evaluate(facts: SessionFacts, opts: EvaluateOptions = {}): CheckReport {
  const failOn = [...(opts.failOn ?? DEFAULT_FAIL_ON)];
  const run = opts.run;
  const requests = facts.requests.map(outcomeOf);
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const fallback: Partial<Located> = facts.first ?? {};

  for (const n of facts.notes) {
    problems.push({ ruleId: n.code, category: ruleFor(n.code).category, message: n.text, seq: n.seq, line: n.line });
  }

  facts.requests.forEach((q, index) => {
    const who = q.from === 'client' ? 'server' : 'client';
    const a = q.answer;
    if (refused(q)) return; // the discovery probe refused: the protocol working, the client falls back
    if (q.task && (!q.task.ended || q.task.status === 'cancelled')) return; // still running (tasks outlive sessions), or cancelled by the requestor
    if (q.task?.status === 'failed' && a) {
      problems.push({ ruleId: 'task-failed', category: 'errors', message: `the ${who}'s task for ${nameOf(q)} (id ${idOf(q.id)}, seq ${q.seq}) ended failed${a.ms !== undefined ? ` after ${round(a.ms)} ms` : ''}`, seq: a.seq, line: a.line, request: index });
    } else if (a?.kind === 'error') {
      const e = a.error;
      const detail = e ? `${e.code ?? '?'}${e.message !== undefined ? ` ${JSON.stringify(e.message)}` : ''}` : '';
      problems.push({ ruleId: 'jsonrpc-error', category: 'errors', message: `the ${who} answered ${nameOf(q)} (id ${idOf(q.id)}, seq ${q.seq}) with error ${detail}`.trimEnd(), seq: a.seq, line: a.line, request: index });
      if (q.method === 'initialize' && q.from === 'client') {
        problems.push({ ruleId: 'initialize-failed', category: 'findings', message: `the server refused initialize with error ${detail}`.trimEnd(), seq: a.seq, line: a.line, request: index });
      }
    } else if (a?.isError) {
      problems.push({ ruleId: 'tool-is-error', category: 'is-error', message: `${nameOf(q)} (id ${idOf(q.id)}, seq ${q.seq}) returned isError: true`, seq: a.seq, line: a.line, request: index });
    } else if (!a && !q.cancelled && q.id !== null) {
      const timedOut = run?.timedOut && run.timedOut.method === q.method && run.timedOut.target === q.target;
      const why = timedOut ? `did not answer within ${run!.timeoutMs} ms` : facts.ended ? 'never answered' : 'has not answered (the session has no end record)';
      problems.push({ ruleId: 'unanswered-request', category: 'unanswered', message: `the ${who} ${why}: ${nameOf(q)} (id ${idOf(q.id)}, seq ${q.seq}, from the ${q.from})`, seq: q.seq, line: q.line, request: index });
    }
  });

  if (run?.timedOut?.method === 'initialize') {
    const index = facts.requests.findIndex((q) => q.method === 'initialize' && q.from === 'client' && !q.answer);
    const q = facts.requests[index];
    problems.push({
      ruleId: 'initialize-timeout',
      category: 'findings',
      message: `the server did not answer initialize within ${run.timeoutMs} ms`,
      ...(q ? { seq: q.seq, line: q.line, request: index } : fallback),
    });
  }

  const exit = facts.exit;
  if (exit) {
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with status ${exit.code ?? '?'}`;
    if (!exit.afterShutdown) {
      problems.push({ ruleId: 'server-exited-early', category: 'findings', message: `the server ${how} while the client was still connected`, seq: exit.seq, line: exit.line });
    } else if (exit.signal !== null && !exit.sentSignals.includes(exit.signal)) {
      // a signal nobody sent (a crash, the OOM killer), even when mcp-tap had forwarded another one
      const sent = [...new Set(exit.sentSignals)].join(', ');
      const message = sent !== '' ? `the server ${how}, a signal it was not sent (mcp-tap sent only ${sent})` : `the server ${how} after its stdin closed, a signal it was not sent`;
      problems.push({ ruleId: 'server-exit-nonzero', category: 'findings', message, seq: exit.seq, line: exit.line });
    } else if (!exit.signalled && exit.code !== null && exit.code !== 0) {
      problems.push({ ruleId: 'server-exit-nonzero', category: 'findings', message: `the server ${how} after its stdin closed`, seq: exit.seq, line: exit.line });
    }
  }
  if (facts.spawnError) {
    problems.push({ ruleId: 'server-spawn-failed', category: 'findings', message: facts.spawnError.error, seq: facts.spawnError.seq, line: facts.spawnError.line });
  } else if (facts.records === 0 && run) {
    problems.push({ ruleId: 'server-spawn-failed', category: 'findings', message: run.tapFailure ?? 'mcp-tap wrote no record of the session' });
  }

  for (const ce of run?.clientErrors ?? []) {
    const q = facts.requests.find((r) => r.from === 'client' && r.id === ce.id && r.method === ce.method);
    if (!q?.answer || q.answer.kind !== 'response') continue; // errors and missing answers are reported already
    problems.push({ ruleId: 'sdk-rejected-answer', category: 'findings', message: `the SDK client rejected the answer to ${nameOf(q)} (seq ${q.seq}): ${ce.message}`, seq: q.answer.seq, line: q.answer.line, request: facts.requests.indexOf(q) });
  }

  let schemaProblems = 0;
  for (const t of facts.tools ?? []) {
    for (const p of checkToolSchemas(t.key, t.def, opts.validator ?? undefined)) {
      schemaProblems++;
      problems.push({ ruleId: p.ruleId, category: 'schema', message: p.message, seq: t.at.seq, line: t.at.line, tool: t.key });
    }
  }
  if (facts.tools?.some((t) => t.truncated)) warnings.push('the tools/list answer is shortened in the log (larger than --max-log-bytes): schema checks see the shortened copy');
  if (opts.validator === null && (facts.tools?.length ?? 0) > 0) warnings.push('JSON Schema meta-validation skipped: ajv could not be loaded (structural schema checks still ran)');

  const asserted = evaluateAssertions(facts, requests, opts.assertions ?? NO_ASSERTIONS, facts.omitted);
  problems.push(...asserted.problems);
  for (const o of asserted.outcomes) if (o.matched === 0) warnings.push(`${o.flag} matched no request of the session`);

  for (const n of run?.notSent ?? []) warnings.push(`${nameOf(n)} was not sent: the SDK client refused it (${n.message})`);
  if (!facts.ended && facts.records > 0) {
    warnings.push(
      unendedState(facts.start?.pid, opts.alive) === 'killed'
        ? 'the session has no end record and its mcp-tap is gone: mcp-tap was killed, so requests without an answer were cut off'
        : 'the session has no end record: mcp-tap is still running, so some requests may still be in flight',
    );
  }

  // in log order; results without a record (none but a failed start) first
  const order = problems.map((p, i) => ({ p, i }));
  order.sort((x, y) => (x.p.seq ?? 0) - (y.p.seq ?? 0) || x.i - y.i);
  const sorted = order.map((x) => x.p);

  // results the gatherer left out (with their requests, or notes past the first of their code), then past the cap here
  const left = new Map<string, number>();
  for (const n of facts.omittedNotes) left.set(n.key, (left.get(n.key) ?? 0) + n.count);
  for (const [key, n] of facts.omitted?.results ?? []) left.set(key, (left.get(key) ?? 0) + n);
  // results over --max-result-tokens past the first the context fold keeps (OVER_LIMIT_KEPT)
  const over = opts.assertions?.maxResultTokens !== undefined ? facts.context?.overLimit : undefined;
  if (over && over.count > over.first.length) left.set('max-result-tokens-exceeded', over.count - over.first.length);
  const leftByCategory = new Map<Category, number>();
  for (const [key, n] of left) {
    const c = ruleFor(keyRule(key).ruleId).category;
    leftByCategory.set(c, (leftByCategory.get(c) ?? 0) + n);
  }
  const count = (c: Category) => sorted.filter((p) => p.category === c).length + (leftByCategory.get(c) ?? 0);
  const failed = failOn.filter((c) => sorted.some((p) => failsOn([c], p.category)) || [...leftByCategory].some(([cat, n]) => n > 0 && failsOn([c], cat)));
  const listed = capResults(sorted, requests, opts.perRule ?? RESULTS_PER_RULE, left);
  const omittedResults: OmittedResult[] = [...left]
    .filter(([, n]) => n > 0)
    .map(([key, n]) => {
      const k = keyRule(key);
      return { ruleId: k.ruleId, category: ruleFor(k.ruleId).category, ...(k.errorCode !== undefined ? { errorCode: k.errorCode } : {}), ...(k.otherCodes ? { otherCodes: k.otherCodes } : {}), count: n };
    })
    .sort((a, b) => a.ruleId.localeCompare(b.ruleId) || Number(a.otherCodes ?? false) - Number(b.otherCodes ?? false) || (a.errorCode ?? 0) - (b.errorCode ?? 0));
  const initialize = facts.requests.find((q) => q.method === 'initialize' && q.from === 'client' && q.answer?.ms !== undefined);
  const start = facts.start;
  const omitted = facts.omitted?.requests ?? 0;
  const by = (s: string): number => facts.omitted?.byStatus.get(s as never) ?? 0;

  const report: CheckReport = {
    reportVersion: 1,
    tool: { name: 'mcp-tap', version: VERSION },
    mode: run ? 'run' : 'log',
    log: facts.path,
    session: facts.records > 0 ? facts.session : null,
    server: {
      ...(typeof facts.serverInfo?.['name'] === 'string' ? { name: facts.serverInfo['name'] } : {}),
      ...(typeof facts.serverInfo?.['version'] === 'string' ? { version: facts.serverInfo['version'] } : {}),
      ...(facts.protocolVersion !== undefined ? { protocolVersion: facts.protocolVersion } : {}),
      ...(facts.era !== undefined ? { era: facts.era } : {}),
      ...(run ? { command: run.command, args: run.args } : start?.command !== undefined ? { command: start.command, args: start.args ?? [] } : {}),
    },
    summary: {
      requests: requests.length + omitted,
      answered: requests.filter((r) => r.status !== 'unanswered' && r.status !== 'cancelled' && r.status !== 'task-running').length + omitted - by('unanswered') - by('cancelled') - by('task-running'),
      errors: requests.filter((r) => r.status === 'error' || r.status === 'task-failed').length + by('error') + by('task-failed'),
      isError: requests.filter((r) => r.status === 'is-error').length + by('is-error'),
      unanswered: count('unanswered'),
      cancelled: requests.filter((r) => r.status === 'cancelled').length + by('cancelled'),
      refusedProbes: requests.filter((r) => r.status === 'refused-probe').length + by('refused-probe'),
      tasks: requests.filter((r) => r.task !== undefined).length + (facts.omitted?.tasks ?? 0),
      tasksRunning: requests.filter((r) => r.status === 'task-running').length + by('task-running'),
      findings: count('findings'),
      security: count('security'),
      specViolations: count('spec'),
      schemaProblems,
      assertionsFailed: count('assertions'),
      tools: facts.tools?.length ?? null,
      resources: facts.resources?.length ?? null,
      prompts: facts.prompts?.length ?? null,
      initializeMs: initialize?.answer?.ms !== undefined ? round(initialize.answer.ms) : null,
      durationMs: facts.durationMs !== undefined ? round(facts.durationMs) : null,
      ended: facts.ended,
    },
    failOn,
    failed,
    passed: failed.length === 0,
    problems: listed,
    omittedResults,
    requests,
    omittedRequests: omitted,
    omittedRequestsByStatus: Object.fromEntries(facts.omitted?.byStatus ?? []),
    assertions: asserted.outcomes,
    toolNames: (facts.tools ?? []).map((t) => t.key),
    warnings,
    ...(facts.context ? { context: facts.context } : {}),
  };
  return report;
}
