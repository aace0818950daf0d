/**
 * The jsonrpc.log record: the public contract documented in docs/log-format.md.
 * One JSON object per line. Readers must ignore fields they do not know and accept records whose `v` is
 * higher than theirs (showing what they understand).
 */

/** Bumped when a field changes meaning or disappears; adding a field does not bump it. */
export const LOG_FORMAT_VERSION = 1;

export type From = 'client' | 'server' | 'proxy';

export type Kind =
  | 'request'
  | 'response'
  | 'error'
  | 'notification'
  | 'batch'
  | 'invalid'
  | 'stderr'
  | 'event';

/** A JSON-RPC id exactly as on the wire: `1` and `"1"` are different ids. */
export type JsonRpcId = string | number | null;

/** A finding; `code` is stable and listed in docs/log-format.md. */
export interface Note {
  code: string;
  text: string;
}

/** One element of a batch record. */
export interface BatchItem {
  kind: Exclude<Kind, 'batch' | 'stderr' | 'event'>;
  id?: JsonRpcId;
  method?: string;
  reqSeq?: number;
  ms?: number;
  target?: string;
  isError?: true;
  cancelled?: true;
  inputRequired?: true;
  retryOf?: number;
  exchangeMs?: number;
  taskId?: string;
  taskOf?: number;
  taskStatus?: string;
  taskMs?: number;
  notes?: Note[];
}

/** What a proxy `event` record reports. */
export type EventName =
  | 'start' // session start: command, args, cwd, pid, versions, envNames
  | 'spawn' // server process started: serverPid
  | 'spawn-error' // server could not be started: error
  | 'lifecycle' // handshake / discovery results: protocolVersion, clientInfo, serverInfo, capabilities
  | 'stdin-closed' // the host closed mcp-tap's stdin (client → server direction ended)
  | 'stdout-closed' // the server closed its stdout (server → client direction ended)
  | 'host-gone' // the host stopped reading mcp-tap's stdout (EPIPE)
  | 'signal' // mcp-tap received a signal and forwarded it: signal
  | 'kill' // mcp-tap escalated shutdown: signal sent because the server did not exit in time
  | 'exit' // the server exited: code, signal
  | 'gap' // records or bytes the log could not keep: lost, reason
  | 'log-error' // the log could not be written: error, lost
  | 'http' // HTTP mode: an exchange's transport outcome (202, 4xx/5xx, GET stream, DELETE): http, challenge, resumes, endpoint, closed
  | 'upstream-error' // HTTP mode: the upstream could not be reached or broke off; the host got 502: http, error
  | 'refused' // HTTP mode: a request whose Host or Origin is not loopback was answered 403: http, reason
  | 'exchange' // HTTP mode: one HTTP exchange is over: http, started, timing, httpVersion, query, request, response, notDecoded, cut, error
  | 'auth' // HTTP mode: an OAuth sign-in from the challenge to the retried request: chain, ok, ms, omitted
  | 'session-id' // HTTP mode: the Mcp-Session-Id changed: http, sessionId, previous, reason, previousSession
  | 'sink-gap' // a sink beside the log (OTLP, a pino transport) lost records or spans: sink, lost, reason
  | 'end'; // last record of a session: pending, counts

/** A request still unanswered at the end of the session. */
export interface PendingRequest {
  from: 'client' | 'server';
  id: JsonRpcId;
  method: string;
  seq: number;
}

export interface LogRecord {
  /** Format version (LOG_FORMAT_VERSION). */
  v: number;
  /** Epoch milliseconds when mcp-tap observed the line. */
  time: number;
  /** Id of the mcp-tap run that wrote the record. */
  session: string;
  /** 1, 2, 3… consecutive over all records of a session, in order of observation. */
  seq: number;
  from: From;
  kind: Kind;

  /** JSON-RPC id as on the wire (requests, responses, errors). */
  id?: JsonRpcId;
  /** Method: of the message itself, or for answers, of the request they answer. */
  method?: string;
  /** Answers: seq of the request answered. Progress and cancel notifications: seq of the request they refer to. */
  reqSeq?: number;
  /** Answers: latency in fractional ms since the request. Progress/cancel: time since the request. */
  ms?: number;

  /** Size of the line in bytes, without its terminating LF. */
  bytes?: number;
  /** The parsed JSON of the line (whenever it parses, also when it is not valid JSON-RPC). */
  msg?: unknown;
  /** The text of a line that is not JSON, and of a stderr line. */
  raw?: string;
  /** The log holds a shortened copy (strings cut, size kept in `bytes`). */
  truncated?: true;
  /** The line ended without LF because the stream closed (torn last line). */
  partial?: true;

  /** Findings. Absent when the message is clean. */
  notes?: Note[];

  /** tools/call: the tool name; resources/read: the uri; prompts/get: the prompt name (on requests and answers). */
  target?: string;
  /** A tools/call result with isError: true. */
  isError?: true;
  /** Answers: the request was cancelled (notifications/cancelled) before this answer came. */
  cancelled?: true;
  /** 2026-07-28: this answer is an `input_required` result; the client is expected to retry. */
  inputRequired?: true;
  /** Batch elements. */
  items?: BatchItem[];
  /** 2026-07-28: this request retries an `input_required` answer; seq of the first request of the exchange. */
  retryOf?: number;
  /** 2026-07-28: answers that end a multi-round exchange: ms since the first request of the exchange. */
  exchangeMs?: number;
  /** Tasks: the task this record belongs to (on the CreateTaskResult answer and every linked record). */
  taskId?: string;
  /** Tasks: seq of the request that created the task (every linked record but the CreateTaskResult answer). */
  taskOf?: number;
  /** Tasks: the status this record reports (working, input_required, completed, failed, cancelled). */
  taskStatus?: string;
  /** Tasks: on the record that ends the task (terminal status or final result), ms since the call. */
  taskMs?: number;

  /** pino's numeric level (30 info, 40 warn, 50 error; src/log/level.ts): the last member before `msg`. */
  level?: number;

  /** kind 'event': which event. Event-specific fields follow. */
  event?: EventName;
  [extra: string]: unknown;
}
