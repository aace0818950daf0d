/**
 * The result of `mcp-tap check`: what `--format json` prints and what the text, SARIF and JUnit
 * renderers lay out. Field names are part of the JSON output's contract (docs/check.md).
 */
import type { ContextCost } from '../lens/context/context-cost.js';
import type { JsonRpcId } from '../log/record.js';
import type { FailOn } from './fail-on.js';
import type { Category } from './rules.js';

/** One result: a finding, an error answer, an unanswered request, a schema problem, a failed assertion. */
export interface Problem {
  ruleId: string;
  category: Category;
  message: string;
  /** The log record it is about (absent only when the session has no records). */
  seq?: number;
  line?: number;
  /** Index into CheckReport.requests when the result concerns one request. */
  request?: number;
  /** Schema problems: the tool. */
  tool?: string;
  /** Failed assertions: index into CheckReport.assertions. */
  assertion?: number;
}

/**
 * How a request ended. `refused-probe`: a server/discover the server refused (-32601, -32022); the client
 * falls back. A request answered with a task ends with its task: `task-failed`, `cancelled`, or (status
 * completed) `ok` / `is-error`; `task-running`: the task had not ended when the session did.
 */
export type RequestStatus = 'ok' | 'error' | 'is-error' | 'unanswered' | 'cancelled' | 'refused-probe' | 'task-failed' | 'task-running';

/** One request of the session and how it went (JUnit makes a testcase of each). */
export interface RequestOutcome {
  seq: number;
  line: number;
  from: 'client' | 'server';
  id: JsonRpcId;
  method: string;
  target?: string;
  status: RequestStatus;
  /** Latency: for a request answered with a task, the task's duration (to its terminal status or final result). */
  ms?: number;
  /** task-running: ms from the request to the session's last record (the task took at least that long). */
  runningMs?: number;
  /** The request was answered with a task (a CreateTaskResult): its id and last status. */
  task?: { taskId: string; status: string };
  error?: { code?: number; message?: string };
  /** Where the answer is in the log. */
  answerSeq?: number;
  answerLine?: number;
}

/** One assertion given on the command line and whether it held. */
export interface AssertionOutcome {
  /** As given: `--max-ms tools/call=500`, `--expect-tool echo`. */
  flag: string;
  passed: boolean;
  /** How many results it produced. */
  failures: number;
  /** --max-ms: how many requests it applied to (0 means it matched nothing). */
  matched?: number;
}

/** Counts and times of the session, for people and dashboards. */
export interface CheckSummary {
  requests: number;
  answered: number;
  errors: number;
  isError: number;
  unanswered: number;
  cancelled: number;
  /** server/discover probes the server refused (the client fell back to initialize); not errors. */
  refusedProbes: number;
  /** Requests answered with a task; `errors` counts those whose task failed. */
  tasks: number;
  /** Tasks still running when the session ended (not answered, not an error). */
  tasksRunning: number;
  findings: number;
  /** Results of the security category (the security lens). */
  security: number;
  /** Messages that break the schema of their protocol revision (`schema-violation`). */
  specViolations: number;
  schemaProblems: number;
  assertionsFailed: number;
  /** From the listings in the session; null when it has none. */
  tools: number | null;
  resources: number | null;
  prompts: number | null;
  /** Latency of the initialize answer, as logged. */
  initializeMs: number | null;
  durationMs: number | null;
  /** The log has the session's end record (mcp-tap shut down normally). */
  ended: boolean;
}

/**
 * Results a long or sick session has beyond what the report lists: check keeps the first
 * RESULTS_PER_RULE of each rule (of each error code for jsonrpc-error) and counts the rest here.
 */
export interface OmittedResult {
  ruleId: string;
  category: Category;
  /** jsonrpc-error: the error code these answers carry (null: none). */
  errorCode?: number | null;
  /** jsonrpc-error: these answers carry codes past the first 200 the report counts one by one. */
  otherCodes?: true;
  count: number;
}

/** The whole report (`--format json`). */
export interface CheckReport {
  reportVersion: 1;
  tool: { name: 'mcp-tap'; version: string };
  mode: 'log' | 'run';
  log: string;
  session: string | null;
  server: {
    name?: string;
    version?: string;
    protocolVersion?: string;
    /** From the lifecycle event: `handshake` (initialize) or `stateless` (server/discover, 2026-07-28). */
    era?: 'handshake' | 'stateless';
    command?: string;
    args?: string[];
  };
  summary: CheckSummary;
  failOn: FailOn[];
  /** The --fail-on categories that occurred; the check passed when empty. */
  failed: FailOn[];
  passed: boolean;
  /** In log order; at most RESULTS_PER_RULE of each rule (and error code), the rest in `omittedResults`. */
  problems: Problem[];
  /** Results not in `problems`, by rule (and error code); counted in the summary and the verdict. */
  omittedResults: OmittedResult[];
  /** The session's requests in log order; in a long session, the first LISTED_REQUESTS and those that did not pass (the first RESULTS_PER_RULE of each reason). */
  requests: RequestOutcome[];
  /** Requests not in `requests` (0 unless the session is long), passing or not. */
  omittedRequests: number;
  /** Those, by status (only statuses that occur). */
  omittedRequestsByStatus: Partial<Record<RequestStatus, number>>;
  assertions: AssertionOutcome[];
  /** Tools listed by the server (JUnit gives each a schema testcase). */
  toolNames: string[];
  /** Things the reader should know that are not results (a skipped validation, a live log). */
  warnings: string[];
  /** What the session costs the model's context (tokens), when a token budget was given. */
  context?: ContextCost;
}
