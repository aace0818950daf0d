/**
 * The shapes the live UI sends to its page: one compact row per record (no body: bodies are fetched on
 * demand, redacted), one card per session, and the server-sent events that carry them. Pure and free of
 * Node types: the page (src/ui/page) imports these types too, so both sides read one definition.
 */

/** One record in the message list. Short keys: a 200k-record session is sent as rows. */
export interface LiveRow {
  /** seq */
  s: number;
  /** time, epoch ms */
  t: number;
  /** from: c client, s server, p proxy */
  f: 'c' | 's' | 'p';
  /** kind */
  k: string;
  /** method (redacted like export) */
  m?: string;
  /** target: tool, uri or prompt (redacted like export) */
  g?: string;
  /** JSON-RPC id, as JSON text (redacted like export) */
  i?: string;
  /** seq of the request this answers or refers to */
  r?: number;
  /** latency, ms */
  d?: number;
  /** flags: E isError, C cancelled, T truncated, P partial, I inputRequired, R refused discovery probe */
  x?: string;
  /** finding codes */
  n?: string[];
  /** event name */
  e?: string;
  /** a short fact about an event (exit code, lost count): mcp-tap's own numbers, never wire data */
  v?: string;
  /** bytes on the wire */
  b?: number;
  /** methods of a batch's elements */
  bm?: string[];
  /** the task the record belongs to (redacted like export) */
  tk?: string;
  /** seq of the request that created the task (absent on the answer that created it) */
  to?: number;
  /** the task status the record reports */
  ts?: string;
  /** on the record that ended the task: ms since the request that created it */
  td?: number;
}

/** How a session stands. `died`: it ended by a signal or was killed, or its log stops without an end record. */
export type SessionState = 'running' | 'exited' | 'died';

/** One session of one log, as the session list shows it. */
export interface SessionCard {
  /** Which log (index into the catalog the server was given; never a path the page could choose). */
  log: number;
  /** The log's file name, for the person. */
  file: string;
  session: string;
  server: string;
  start: number;
  last: number;
  state: SessionState;
  exitCode?: number | null;
  exitSignal?: string | null;
  /** mcp-tap's pid (from the start record): a running session whose mcp-tap is gone was killed. */
  pid?: number;
  /** Set when the state is `died` because mcp-tap itself was killed (no end record, its process gone). */
  killed?: true;
  records: number;
  requests: number;
  errors: number;
  findings: number;
  /** Latencies of the latest answers (ms), oldest first, for the sparkline. */
  latency: number[];
  /** Tokens (o200k_base) before the first message — tool definitions and instructions — and of the tool results so far. */
  tokens?: { context: number; results: number };
}

/** What the event stream carries. */
export type LiveEvent =
  | { type: 'hello'; cards: SessionCard[] }
  | { type: 'cards'; cards: SessionCard[] }
  | { type: 'rows'; log: number; session: string; rows: LiveRow[] }
  /** Rows of a session this page did not get: it read slower than they came (reload the session for them). */
  | { type: 'skipped'; log: number; session: string; rows: number }
  | { type: 'problem'; text: string };

/** Answers of /api/body. */
export interface BodyAnswer {
  redacted: boolean;
  record: unknown;
}
