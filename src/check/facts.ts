/**
 * The facts check and baseline judge about one session (what src/check/gather.ts gathers in one pass):
 * requests and their answers and tasks, notes, listings, the lifecycle and how the server ended, each
 * with where it sits in the log; and the bound that keeps them small for a long session. Types only,
 * and the bound's defaults.
 */
import type { ContextCost } from '../lens/context/context-cost.js';
import type { Omitted } from '../log/keep-first.js';
import type { JsonRpcId } from '../log/record.js';
import type { LatencyStat } from './latency-medians.js';
import type { OmittedRequests } from './omitted.js';

/** Where a fact sits in the log: the record's seq and its 1-based line in the file. */
export interface Located {
  seq: number;
  line: number;
}

/** The answer a request got. */
export interface AnswerFact extends Located {
  kind: 'response' | 'error';
  ms?: number;
  isError: boolean;
  error?: { code?: number; message?: string };
}

/** A request of either side, and how it ended. */
export interface RequestFact extends Located {
  from: 'client' | 'server';
  id: JsonRpcId;
  method: string;
  /** tools/call: the tool; resources/read: the uri; prompts/get: the prompt. */
  target?: string;
  inBatch: boolean;
  /** The request carried params.cursor (a listing's next page, not a fresh listing). */
  cursor: boolean;
  answer?: AnswerFact;
  /** A notifications/cancelled referred to it. */
  cancelled: boolean;
  /**
   * The answer was a CreateTaskResult: the request is done when its task ends, and `answer` then holds
   * the record that ended it, with the task's duration as `ms`.
   */
  task?: TaskFact;
}

/** A request's task, as far as the log shows it. */
export interface TaskFact {
  taskId: string;
  /** The last status seen. */
  status: string;
  /** A terminal status or the final result was seen. */
  ended: boolean;
  /** Still running: ms from the call to the session's last record. */
  runningMs?: number;
  /** Epoch ms of the call. */
  callTime: number;
}

/** A note (finding) of a record, with where it is. */
export interface NoteFact extends Located {
  code: string;
  text: string;
  from: string;
  kind: string;
  method?: string;
}

/** One tool, resource, template or prompt definition as the server listed it. */
export interface ListedItem {
  key: string;
  def: Record<string, unknown>;
  /** The answer record that listed it. */
  at: Located;
  truncated: boolean;
}

/** Everything check and baseline need to know about one session. */
export interface SessionFacts {
  path: string;
  session: string;
  records: number;
  /** The session's first record (the start event when there is one). */
  first?: Located;
  start?: { name?: string; command?: string; args?: string[]; pid?: number };
  protocolVersion?: string;
  era?: 'handshake' | 'stateless';
  serverInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  requests: RequestFact[];
  notes: NoteFact[];
  /** null: the session has no answer to that listing method. */
  tools: ListedItem[] | null;
  resources: ListedItem[] | null;
  resourceTemplates: ListedItem[] | null;
  prompts: ListedItem[] | null;
  /** afterShutdown: the client closed stdin (or a signal came) before; signalled: mcp-tap forwarded a signal or killed it. */
  exit?: Located & { code: number | null; signal: string | null; afterShutdown: boolean; signalled: boolean; sentSignals: string[] };
  spawnError?: Located & { error: string };
  /** The session has its end event. */
  ended: boolean;
  /** Epoch ms of the session's first record. */
  startTime?: number;
  durationMs?: number;
  /**
   * Latency of the client's requests answered (a task call's when its task ended), per method and per
   * tool of tools/call, in the order they were first answered: of every request, kept or not
   * (latency-medians.ts).
   */
  latency: { methods: Map<string, LatencyStat>; tools: Map<string, LatencyStat> };
  /** Bounded gathering (GatherBound): the requests left out of `requests`, and what they count for. */
  omitted?: OmittedRequests;
  /** Notes left out of `notes` (past the first `perRule` of their code), by code. */
  omittedNotes: Omitted[];
  /** What the session costs the model's context, when a token budget asked for it. */
  context?: ContextCost;
  /** seq → line of the tools/call answers over --max-result-tokens (where those results are located). */
  lines?: Map<number, number>;
}

/**
 * What check keeps of a long session: the first `listed` requests whole, and beyond them only the ones
 * that matter (not plainly answered, initialize and listings, a --max-ms limit exceeded, a --forbid-tool
 * called), each only while its reason — its error code, its rule, its method — has had fewer than
 * `perRule`; the rest are counted (omitted.ts). Notes likewise: the first `perRule` of each code. Memory
 * then grows with neither the session nor its failures.
 */
export interface GatherBound {
  listed: number;
  /** The --max-ms limits (key, ms) and --forbid-tool names the check will judge. */
  maxMs: ReadonlyArray<{ key: string; ms: number }>;
  forbidTools: readonly string[];
  /** Requests and notes kept per reason; default RESULTS_PER_RULE. */
  perRule?: number;
  /** Requests waiting for an answer kept whole past the listed ones; default WAITING_WHOLE. */
  waitingWhole?: number;
}

/** How many requests check lists whole before it keeps only those that matter (docs/check.md). */
export const LISTED_REQUESTS = 1000;

/**
 * What baseline and diff keep of a session: no request listed (latencies are streamed, findings
 * counted), so they read any session in the memory check does.
 */
export const BASELINE_BOUND: GatherBound = { listed: 0, maxMs: [], forbidTools: [] };

/** Results check keeps whole per rule (and per error code); the rest are counted (docs/check.md). */
export const RESULTS_PER_RULE = 1000;
